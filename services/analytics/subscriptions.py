"""How analytics follows the other capabilities: receivers of their signals
(services/core/signals.py), connected once by create_app. Each adds to the aggregates in
the unit of work of the change (services/analytics/counting.py); none queries more than the
rows the change is about."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select

import clock
from extensions import db
from models import Document, DocumentStatus, InstanceState, WebhookDelivery, WebhookEndpoint
from models.workflows import WorkflowInstance
from services.analytics import counting
from services.analytics.counting import KEPT
from services.core import signals

# Counters (per hour and day) and totals, by name.
UPLOADS = "uploads"  # each stored content: new documents and new versions
DOCUMENTS = "documents"  # +1 when created, -1 when purged: documents stored
STORAGE = "storageBytes"  # +size of each version stored, -all of them when purged
PURGED = "documentsPurged"
WORKFLOWS_FINISHED = "workflowsFinished"  # dimension: approved, rejected, cancelled
CYCLE_SECONDS = "workflowCycleSeconds"  # sum, over approved and rejected ones
DELIVERIES = "webhookDeliveries"  # dimension: succeeded, failed
API_REQUESTS = "apiRequests"  # dimension: '' (all) or a credential id
# Totals only.
BY_STATUS = "documents.status"
BY_CONTENT_TYPE = "documents.contentType"
WORKFLOW_STATES = "workflows.state"

DECIDED = (InstanceState.APPROVED.value, InstanceState.REJECTED.value)
FINISHED = (*DECIDED, InstanceState.CANCELLED.value)


def connect() -> None:
    """Subscribe the receivers below (idempotent: blinker keeps one connection per receiver)."""
    counting.connect()
    signals.document_state_changed.connect(_document_changed)
    signals.document_purged.connect(_document_purged)
    signals.workflow_instance_state_changed.connect(_workflow_changed)
    signals.webhook_delivery_closed.connect(_delivery_closed)
    signals.webhook_delivery_reopened.connect(_delivery_reopened)
    signals.webhook_endpoint_deleting.connect(_endpoint_deleting)


def _document_changed(
    document: Document, *, previous: tuple[str, str] | None, stored_bytes: int, **_
) -> None:
    tenant = document.tenant_id
    if previous is None:
        counting.count(tenant, DOCUMENTS, document.created_at)
    else:
        counting.adjust_total(tenant, BY_STATUS, previous[0], -1)
        counting.adjust_total(tenant, BY_CONTENT_TYPE, previous[1], -1)
    counting.adjust_total(tenant, BY_STATUS, document.status, 1)
    counting.adjust_total(tenant, BY_CONTENT_TYPE, document.content_type, 1)
    if stored_bytes or previous is None:
        # A version's time is the document's updated_at of the change that stored it.
        counting.count(tenant, UPLOADS, document.updated_at)
        counting.count(tenant, STORAGE, document.updated_at, stored_bytes)
        counting.adjust_total(tenant, STORAGE, "", stored_bytes)


def _document_purged(document_id: str, *, tenant_id: str, **_) -> None:
    document = Document.find_for_tenant(document_id, tenant_id)
    if document is None:
        return
    now = clock.now()
    counting.move_to_kept(tenant_id, DOCUMENTS, document.created_at, 1)
    stored = 0
    for version in document.versions:
        counting.move_to_kept(tenant_id, UPLOADS, version.created_at, 1)
        counting.move_to_kept(tenant_id, STORAGE, version.created_at, version.size)
        stored += version.size
    counting.count(tenant_id, DOCUMENTS, now, -1, origin=KEPT)
    counting.count(tenant_id, STORAGE, now, -stored, origin=KEPT)
    counting.count(tenant_id, PURGED, now, 1, origin=KEPT)
    counting.adjust_total(tenant_id, BY_STATUS, document.status or DocumentStatus.DELETED, -1)
    counting.adjust_total(tenant_id, BY_CONTENT_TYPE, document.content_type, -1)
    counting.adjust_total(tenant_id, STORAGE, "", -stored)


def _workflow_changed(instance: WorkflowInstance, *, previous: str | None, **_) -> None:
    tenant = instance.tenant_id
    if previous is not None:
        counting.adjust_total(tenant, WORKFLOW_STATES, previous, -1)
    counting.adjust_total(tenant, WORKFLOW_STATES, instance.state, 1)
    if instance.state in FINISHED and instance.completed_at is not None:
        for metric, value in finished_counts(
            instance.state, instance.created_at, instance.completed_at
        ):
            counting.count(tenant, metric[0], instance.completed_at, value, metric[1])


def finished_counts(state: str, created_at: datetime, completed_at: datetime):
    """What one finished instance adds: ((metric, dimension), value) pairs."""
    yield (WORKFLOWS_FINISHED, state), 1
    if state in DECIDED:
        yield (CYCLE_SECONDS, ""), max(0, int((completed_at - created_at).total_seconds()))


def _delivery_closed(delivery: WebhookDelivery, **_) -> None:
    if delivery.completed_at is not None:
        counting.count(delivery.tenant_id, DELIVERIES, delivery.completed_at, 1, delivery.status)


def _delivery_reopened(
    delivery: WebhookDelivery, *, previous_status: str, previous_completed_at: datetime, **_
) -> None:
    counting.count(delivery.tenant_id, DELIVERIES, previous_completed_at, -1, previous_status)


def _endpoint_deleting(endpoint: WebhookEndpoint, **_) -> None:
    closed = db.session.execute(
        select(WebhookDelivery.status, WebhookDelivery.completed_at).where(
            WebhookDelivery.tenant_id == endpoint.tenant_id,
            WebhookDelivery.endpoint_id == endpoint.id,
            WebhookDelivery.completed_at.is_not(None),
        )
    )
    for status, completed_at in closed:
        counting.move_to_kept(endpoint.tenant_id, DELIVERIES, completed_at, 1, status)

"""Recomputing a tenant's aggregates from the records (`flask analytics rebuild SLUG`): the
`records` counters and every total are thrown away and counted again from the documents and
their versions, the workflow instances and the webhook deliveries; the `kept` counters (what
no record holds any more: purged documents, deleted endpoints' deliveries, API requests) stay,
and the API requests of the last 7 days are rolled up from Redis again.

It runs in one transaction, so readers see the old figures until it commits. Changes made
while it runs are counted by both it and the live receivers only if they commit after it
read them: run it when the tenant is quiet (the numbers it fixes are from bugs or restores,
not from ordinary traffic)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import delete, func, select

from errors import not_found
from extensions import db
from models import (
    AnalyticsCounter,
    AnalyticsTotal,
    Document,
    DocumentVersion,
    Tenant,
    WebhookDelivery,
)
from models.workflows import WorkflowInstance
from services.analytics import counting, requests
from services.analytics.counting import DAY, HOUR, RECORDS, day_of, hour_of
from services.analytics.subscriptions import (
    BY_CONTENT_TYPE,
    BY_STATUS,
    DELIVERIES,
    DOCUMENTS,
    FINISHED,
    STORAGE,
    UPLOADS,
    WORKFLOW_STATES,
    finished_counts,
)

BATCH = 5000  # rows streamed per round trip

Progress = Callable[[int], None]  # told how many more records were read


@dataclass
class RebuildReport:
    documents: int = 0
    versions: int = 0
    workflow_instances: int = 0
    webhook_deliveries: int = 0
    counters: int = 0

    def as_dict(self) -> dict[str, int]:
        return {
            "documents": self.documents,
            "versions": self.versions,
            "workflowInstances": self.workflow_instances,
            "webhookDeliveries": self.webhook_deliveries,
            "counters": self.counters,
        }


def records_to_read(tenant_id: str) -> int:
    """How many rows a rebuild reads (for a progress bar)."""
    total = 0
    for model in (Document, DocumentVersion, WorkflowInstance, WebhookDelivery):
        total += db.session.scalar(
            select(func.count()).select_from(model).where(model.tenant_id == tenant_id)
        )
    return total


def rebuild(tenant_id: str, progress: Progress | None = None) -> RebuildReport:
    """Recount `tenant_id`'s aggregates (the caller commits)."""
    if db.session.get(Tenant, tenant_id) is None:
        raise not_found("Tenant")
    tick = progress or (lambda _n: None)
    report = RebuildReport()
    counters: Counter = Counter()
    totals: Counter = Counter()

    def add(metric: str, at, value: int = 1, dimension: str = "") -> None:
        counters[(tenant_id, metric, dimension, HOUR, hour_of(at), RECORDS)] += value
        counters[(tenant_id, metric, dimension, DAY, day_of(at), RECORDS)] += value

    for created_at, status, content_type in _stream(
        select(Document.created_at, Document.status, Document.content_type).where(
            Document.tenant_id == tenant_id
        ),
        tick,
    ):
        add(DOCUMENTS, created_at)
        totals[(tenant_id, BY_STATUS, status)] += 1
        totals[(tenant_id, BY_CONTENT_TYPE, content_type)] += 1
        report.documents += 1
    for created_at, size in _stream(
        select(DocumentVersion.created_at, DocumentVersion.size).where(
            DocumentVersion.tenant_id == tenant_id
        ),
        tick,
    ):
        add(UPLOADS, created_at)
        add(STORAGE, created_at, size)
        totals[(tenant_id, STORAGE, "")] += size
        report.versions += 1
    for state, created_at, completed_at in _stream(
        select(
            WorkflowInstance.state, WorkflowInstance.created_at, WorkflowInstance.completed_at
        ).where(WorkflowInstance.tenant_id == tenant_id),
        tick,
    ):
        totals[(tenant_id, WORKFLOW_STATES, state)] += 1
        if state in FINISHED and completed_at is not None:
            for (metric, dimension), value in finished_counts(state, created_at, completed_at):
                add(metric, completed_at, value, dimension)
        report.workflow_instances += 1
    for status, completed_at in _stream(
        select(WebhookDelivery.status, WebhookDelivery.completed_at).where(
            WebhookDelivery.tenant_id == tenant_id
        ),
        tick,
    ):
        if completed_at is not None:
            add(DELIVERIES, completed_at, 1, status)
        report.webhook_deliveries += 1

    db.session.execute(
        delete(AnalyticsCounter).where(
            AnalyticsCounter.tenant_id == tenant_id, AnalyticsCounter.origin == RECORDS
        )
    )
    db.session.execute(delete(AnalyticsTotal).where(AnalyticsTotal.tenant_id == tenant_id))
    for chunk in _chunks(dict(counters)):
        counting.write_counters(chunk)
    counting.write_totals(dict(totals))
    report.counters = len(counters) + requests.roll_up(tenant_id)
    return report


def _stream(stmt, tick: Progress):
    result = db.session.execute(stmt.execution_options(yield_per=BATCH))
    for partition in result.partitions():
        yield from partition
        tick(len(partition))


def _chunks(rows: dict, size: int = BATCH):
    items = sorted(rows.items())
    for i in range(0, len(items), size):
        yield dict(items[i : i + size])

"""Replaying a time range of events to one endpoint, e.g. after the receiver's outage: each
event of the range the endpoint subscribes to gets an attempt now and, if that fails, the
whole schedule of CONTRACT §7 again, counted from the replay. The webhook-id stays the
event's id, so a receiver that already has an event recognises it."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import select

import clock
from errors import FieldError, conflict, validation_failed
from extensions import db
from models import DeliveryStatus, Event, WebhookDelivery, WebhookEndpoint
from models.base import in_tenant
from services.audit import audit_log
from services.core import signals
from services.core.actors import Actor
from services.webhooks import deliveries
from services.webhooks.catalogue import DIRECT_ONLY

MAX_RANGE = timedelta(days=31)
MAX_EVENTS = 10_000  # per replay; a longer outage is replayed in several ranges


def replay(endpoint: WebhookEndpoint, start: datetime, end: datetime, actor: Actor) -> int:
    """Queue every event of [start, end) that the endpoint subscribes to; how many. Events
    whose delivery is being attempted right now are left to that attempt."""
    _check_range(start, end)
    if not endpoint.enabled:
        raise conflict("The endpoint is disabled; enable it before replaying to it.")
    events = _events(endpoint, start, end)
    existing = {
        d.event_id: d
        for d in db.session.scalars(
            select(WebhookDelivery).where(
                WebhookDelivery.endpoint_id == endpoint.id,
                in_tenant(WebhookDelivery, endpoint.tenant_id),
                WebhookDelivery.event_id.in_([e.id for e in events]),
            )
        )
    }
    now = clock.now()
    queued = []
    for event in events:
        delivery = existing.get(event.id) or deliveries.new_delivery(event, endpoint)
        if delivery.claimed_until is not None and delivery.claimed_until > now:
            continue
        if delivery.completed_at is not None:
            signals.webhook_delivery_reopened.send(
                delivery,
                previous_status=delivery.status,
                previous_completed_at=delivery.completed_at,
            )
        delivery.status = (
            DeliveryStatus.RETRYING.value
            if delivery.attempt_count
            else DeliveryStatus.PENDING.value
        )
        delivery.completed_at = None
        delivery.next_attempt_at = now
        delivery.schedule_from = now
        delivery.schedule_base = delivery.attempt_count or 0
        queued.append(delivery)
    db.session.flush()
    deliveries.reschedule(queued)
    audit_log.record(
        endpoint.tenant_id, actor, "webhook.replayed", target_type="webhook_endpoint",
        target_id=endpoint.id,
        details={"from": clock.rfc3339(start), "to": clock.rfc3339(end), "events": len(queued)},
    )  # fmt: skip
    return len(queued)


def _check_range(start: datetime, end: datetime) -> None:
    errors = []
    if start.tzinfo is None or end.tzinfo is None:
        errors.append(FieldError("VALIDATION_ERROR", "Give times with a time zone.", "from"))
    elif end <= start:
        errors.append(FieldError("VALIDATION_ERROR", "'to' must be after 'from'.", "to"))
    elif end - start > MAX_RANGE:
        errors.append(FieldError("VALIDATION_ERROR", "Replay at most 31 days at a time.", "to"))
    if errors:
        raise validation_failed(errors)


def _events(endpoint: WebhookEndpoint, start: datetime, end: datetime) -> list[Event]:
    rows = list(
        db.session.scalars(
            select(Event)
            .where(
                Event.tenant_id == endpoint.tenant_id,
                Event.created_at >= start,
                Event.created_at < end,
            )
            .order_by(Event.created_at, Event.id)
            .limit(MAX_EVENTS + 1)
        )
    )
    if len(rows) > MAX_EVENTS:
        raise validation_failed([FieldError(
            "VALIDATION_ERROR",
            f"More than {MAX_EVENTS:,} events in that range: replay a shorter one.", "to",
        )])  # fmt: skip
    return [e for e in rows if e.type not in DIRECT_ONLY and endpoint.subscribes_to(e.type)]

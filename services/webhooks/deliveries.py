"""Deliveries: an event fanned out to the endpoints that want it (a row per endpoint, in the
event's own transaction), attempted on the schedule of CONTRACT §7, one attempt at a time.

The database is the record of truth; RQ only carries the work. Once a transaction with new
or due deliveries commits, it wakes the drain job (wakeup.py: one job for many commits);
an attempt claims its delivery with a conditional UPDATE (so a slow attempt, a duplicate job
and the reconciler never send it twice at once), commits the claim, sends, then records the
outcome in a second unit of work (jobs/webhooks.py draws the boundaries; batches.py claims,
sends and records many at a time)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any

import orjson
from flask import current_app
from sqlalchemy import ColumnElement, or_, update
from sqlalchemy.orm import selectinload

import clock
from errors import conflict, not_found
from extensions import db
from models import DeliveryStatus, Event, WebhookAttempt, WebhookDelivery, WebhookEndpoint
from models.webhooks import OPEN_STATUSES
from services.audit import audit_log
from services.core import events, outbound, signals, transaction
from services.core.actors import Actor
from services.core.outbound import Outcome, Pools
from services.core.paging import keyset_page
from services.webhooks import endpoints, health, signing, wakeup
from services.webhooks.catalogue import DIRECT_ONLY, TEST_EVENT

log = logging.getLogger(__name__)

# CONTRACT §7: attempts counted from the event (8 over 48 hours).
SCHEDULE = (
    timedelta(0),
    timedelta(minutes=5),
    timedelta(minutes=30),
    timedelta(hours=2),
    timedelta(hours=6),
    timedelta(hours=12),
    timedelta(hours=24),
    timedelta(hours=48),
)
# Longer than any attempt (10 s of HTTP, a DNS lookup, two commits; a batch's sends start
# within batches.SEND_WINDOW): a claim left by a killed worker lapses after it, and the
# reconciler sends again.
CLAIM_LEASE = timedelta(minutes=2)
MAX_PAYLOAD_BYTES = 256 * 1024
# What every attempt says about itself besides its signature (the URL's Host is core's).
REQUEST_HEADERS = {"Content-Type": "application/json", "User-Agent": "dms-webhooks/1"}


@dataclass(frozen=True)
class AttemptPlan:
    """What one claimed attempt sends, built inside the claim's unit of work."""

    delivery_id: str
    url: str
    headers: dict[str, str]
    body: bytes
    started_at: datetime


# --- fan-out and enqueueing ------------------------------------------------------------------


def fan_out(event: Event) -> list[WebhookDelivery]:
    """A pending delivery per enabled endpoint subscribed to `event`, in the event's unit of
    work (so an event is never committed without its deliveries); enqueued after the commit."""
    if event.type in DIRECT_ONLY:
        return []
    made = [new_delivery(event, e) for e in endpoints.subscribers(event.tenant_id, event.type)]
    event.dispatched_at = clock.now()
    _enqueue_after_commit(made)
    return made


def new_delivery(event: Event, endpoint: WebhookEndpoint) -> WebhookDelivery:
    delivery = WebhookDelivery(
        tenant_id=event.tenant_id,
        endpoint_id=endpoint.id,
        event_id=event.id,
        status=DeliveryStatus.PENDING.value,
        attempt_count=0,
        next_attempt_at=event.created_at,
    )
    db.session.add(delivery)
    return delivery


def _enqueue_after_commit(deliveries: Sequence[WebhookDelivery]) -> None:
    if deliveries:
        transaction.after_commit(wakeup.wake)


def reschedule(deliveries: Sequence[WebhookDelivery], replace: bool = False) -> None:
    """Wake the drain job after the commit for these due deliveries (retry, replay, the
    reconciler with `replace`)."""
    db.session.flush()
    if deliveries:
        transaction.after_commit(partial(wakeup.wake, replace))


# --- one attempt -----------------------------------------------------------------------------


def claimable(now: datetime, rows: Any = WebhookDelivery) -> list[ColumnElement[bool]]:
    """What makes a delivery claimable at `now`: open, due, and no claim running (`rows`:
    WebhookDelivery or an alias of it)."""
    return [
        rows.status.in_(OPEN_STATUSES),
        rows.next_attempt_at <= now,
        or_(rows.claimed_until.is_(None), rows.claimed_until < now),
    ]


def claim(delivery_id: str, job_id: str | None = None) -> AttemptPlan | None:
    """Claim the delivery for one attempt if it is open, due and not claimed; None otherwise
    (already done, not due yet, or another attempt holds it). The caller commits the claim
    before sending."""
    now = clock.now()
    claimed = db.session.execute(
        update(WebhookDelivery)
        .where(WebhookDelivery.id == delivery_id, *claimable(now))
        .values(claimed_until=now + CLAIM_LEASE, job_id=job_id)
        .execution_options(synchronize_session=False)
    )
    if claimed.rowcount != 1:
        return None
    delivery = db.session.get(WebhookDelivery, delivery_id, populate_existing=True)
    assert delivery is not None
    return plan_attempt(delivery, now)


def plan_attempt(
    delivery: WebhookDelivery, now: datetime, secrets_of: dict[str, list[str]] | None = None
) -> AttemptPlan | None:
    """What the claimed `delivery` sends now; None if its endpoint was disabled meanwhile
    (then it is closed as failed). `secrets_of` caches the endpoints' secrets for a batch."""
    if not delivery.endpoint.enabled:
        _close(delivery, DeliveryStatus.FAILED, now)
        return None
    event = delivery.event
    body = payload_bytes(event)
    timestamp = int(now.timestamp())
    cache = {} if secrets_of is None else secrets_of
    try:
        if delivery.endpoint_id not in cache:
            cache[delivery.endpoint_id] = endpoints.signing_secrets(delivery.endpoint)
        keys = cache[delivery.endpoint_id]
    except ValueError as exc:  # SECRET_KEY changed: nothing can be signed until a rotation
        log.error("webhook secret unreadable", extra={"endpoint_id": delivery.endpoint_id})
        keys, body = [], str(exc).encode()
    headers = {
        "webhook-id": event.id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": signing.signature_header(event.id, timestamp, body, keys),
    }
    return AttemptPlan(delivery.id, delivery.endpoint.url, headers, body, now)


def send(
    plan: AttemptPlan, allow_private: bool | None = None, pools: Pools | None = None
) -> Outcome:
    """The SSRF guard, then the request (services/core/outbound.py); outside any unit of work
    (it takes up to 10 s). From
    a thread without the app, pass `allow_private` (the setting); `pools` keeps connections
    alive across a batch."""
    if not plan.headers["webhook-signature"]:
        return Outcome(None, 0, error=plan.body.decode())
    if allow_private is None:
        allow_private = current_app.config["DMS_WEBHOOK_ALLOW_PRIVATE"]
    try:
        target = outbound.resolve(plan.url, allow_private=allow_private)
    except outbound.AddressRefused as exc:
        return Outcome(None, 0, error=str(exc)[:500])
    return outbound.post(target, {**REQUEST_HEADERS, **plan.headers}, plan.body, pools)


def record_outcome(plan: AttemptPlan, outcome: Outcome) -> str | None:
    """Record the attempt and decide what follows (`apply_outcome`). Returns the delivery's
    status (None if it was deleted meanwhile)."""
    delivery = db.session.get(WebhookDelivery, plan.delivery_id, populate_existing=True)
    if delivery is None:
        return None
    apply_outcome(delivery, plan, outcome, clock.now())
    db.session.flush()
    return delivery.status


def apply_outcome(
    delivery: WebhookDelivery, plan: AttemptPlan, outcome: Outcome, now: datetime
) -> None:
    """The attempt's row, and what follows: succeeded, the next slot of the schedule, or
    failed (the schedule is spent, or the receiver answered 410 Gone or has failed every
    attempt for 5 days, which also disable the endpoint). The caller flushes."""
    number = delivery.attempt_count + 1
    db.session.add(
        WebhookAttempt(
            delivery_id=delivery.id,
            number=number,
            at=plan.started_at,
            status_code=outcome.status_code,
            latency_ms=outcome.latency_ms,
            error=outcome.error,
            response_excerpt=outcome.excerpt,
        )
    )
    delivery.attempt_count = number
    delivery.claimed_until = None
    if outcome.succeeded:
        _close(delivery, DeliveryStatus.SUCCEEDED, now)
    elif outcome.status_code == 410:
        endpoints.disable(
            delivery.endpoint, f"The endpoint answered 410 Gone on {clock.rfc3339(now)}."
        )
        _close(delivery, DeliveryStatus.FAILED, now)
    else:
        due = next_attempt_at(
            delivery.schedule_from or delivery.event.created_at,
            number - delivery.schedule_base,
            now,
            outcome.retry_after,
        )
        if health.disable_if_failing(delivery.endpoint) or due is None:
            _close(delivery, DeliveryStatus.FAILED, now)
        else:
            delivery.status = DeliveryStatus.RETRYING.value
            delivery.next_attempt_at = due


def next_attempt_at(
    event_at: datetime, attempts_made: int, now: datetime, retry_after: float | None = None
) -> datetime | None:
    """The schedule's next slot after `attempts_made` attempts (now, if that slot has passed),
    or None when the schedule is spent. A Retry-After that falls within the schedule (before
    its last slot) defers the attempt to it; one beyond is ignored and the schedule holds."""
    if attempts_made >= len(SCHEDULE):
        return None
    due = max(event_at + SCHEDULE[attempts_made], now)
    if retry_after is not None:
        wanted = now + timedelta(seconds=retry_after)
        if wanted <= event_at + SCHEDULE[-1]:
            due = max(due, wanted)
    return due


def _close(delivery: WebhookDelivery, status: DeliveryStatus, now: datetime) -> None:
    delivery.status = status.value
    delivery.completed_at = now
    delivery.next_attempt_at = None
    delivery.claimed_until = None
    signals.webhook_delivery_closed.send(delivery)  # counts it (its fields, no query)
    if status is DeliveryStatus.FAILED:
        db.session.flush()  # the listeners see the delivery as it is now
        signals.webhook_delivery_failed.send(delivery)


def payload_bytes(event: Event) -> bytes:
    """The event as JSON; over MAX_PAYLOAD_BYTES its data keeps only the ids (and `truncated`),
    so the receiver fetches the rest through the API."""
    payload = event.as_payload()
    body = orjson.dumps(payload)
    if len(body) <= MAX_PAYLOAD_BYTES:
        return body
    payload["data"] = {**_ids_only(event.data), "truncated": True}
    return orjson.dumps(payload)


def _ids_only(value: Any) -> Any:
    if not isinstance(value, dict):
        return None
    kept: dict[str, Any] = {}
    for key, item in value.items():
        if isinstance(item, dict):
            inner = _ids_only(item)
            if inner:
                kept[key] = inner
        elif (key == "id" or key.endswith("Id")) and isinstance(item, str):
            kept[key] = item
    return kept


# --- what people do with deliveries ----------------------------------------------------------


def send_test(endpoint: WebhookEndpoint, actor: Actor) -> WebhookDelivery:
    """A `webhook.test` event for this endpoint alone, delivered like any other."""
    if not endpoint.enabled:
        raise conflict("The endpoint is disabled; enable it before testing it.")
    event = events.emit(
        endpoint.tenant_id,
        TEST_EVENT,
        {
            "message": "This is a test event from the Document Management Service.",
            "endpointId": endpoint.id,
            "requestedBy": actor.ref,
        },
    )
    delivery = new_delivery(event, endpoint)
    db.session.flush()
    _enqueue_after_commit([delivery])
    return delivery


def retry_delivery(delivery: WebhookDelivery, actor: Actor) -> WebhookDelivery:
    """Attempt now, whatever the delivery's state: a failed one gets one more attempt, an open
    one has its next attempt brought forward (the schedule goes on from there)."""
    now = clock.now()
    if not delivery.endpoint.enabled:
        raise conflict("The endpoint is disabled; enable it before retrying.")
    if delivery.claimed_until is not None and delivery.claimed_until > now:
        raise conflict("An attempt of this delivery is in progress.")
    if delivery.completed_at is not None:
        signals.webhook_delivery_reopened.send(
            delivery, previous_status=delivery.status, previous_completed_at=delivery.completed_at
        )
    delivery.status = (
        DeliveryStatus.RETRYING.value if delivery.attempt_count else DeliveryStatus.PENDING.value
    )
    delivery.completed_at = None
    delivery.next_attempt_at = now
    reschedule([delivery])
    audit_log.record(
        delivery.tenant_id,
        actor,
        "webhook.delivery_retried",
        target_type="webhook_delivery",
        target_id=delivery.id,
        details={"endpointId": delivery.endpoint_id, "eventId": delivery.event_id},
    )
    return delivery


def get_delivery(endpoint: WebhookEndpoint, delivery_id: str) -> WebhookDelivery:
    delivery = WebhookDelivery.get_for_tenant(delivery_id, endpoint.tenant_id)
    if delivery.endpoint_id != endpoint.id:
        raise not_found(WebhookDelivery.__not_found_label__)
    return delivery


def list_deliveries(
    endpoint: WebhookEndpoint, limit: int, after: Sequence[Any] | None, status: str | None = None
) -> tuple[list[WebhookDelivery], bool]:
    """The endpoint's deliveries, newest first, with their attempts."""
    stmt = (
        WebhookDelivery.query_for_tenant(endpoint.tenant_id)
        .where(WebhookDelivery.endpoint_id == endpoint.id)
        .options(selectinload(WebhookDelivery.attempts))
    )
    if status is not None:
        stmt = stmt.where(WebhookDelivery.status == status)
    return keyset_page(stmt, [(WebhookDelivery.id, True)], limit, after)

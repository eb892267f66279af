"""Push deliveries: a notification fanned out to its person's devices (a row per subscription,
in the notification's own unit of work), then pushed by a job, one attempt at a time.

The database is the record of truth; RQ carries the work. The first attempt is enqueued after
the commit; an outage books the next one with RQ's scheduler (RETRY_DELAYS, or the provider's
Retry-After up to MAX_RETRY_AFTER); the reconciler enqueues whatever lost its job. An attempt
claims its delivery with a conditional UPDATE, so a duplicate job never pushes twice at once.
jobs/push.py draws the unit-of-work boundaries around claim, send and record."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial

from redis.exceptions import RedisError
from sqlalchemy import or_, update

import clock
from extensions import db
from models import Notification, PushDelivery, PushStatus
from models.push import OPEN_PUSH_STATUSES
from services.core import queue, transaction
from services.push import devices, providers, reconciler
from services.push.payloads import Answer, Message, Verdict

log = logging.getLogger(__name__)

DELIVERY_JOB = "jobs.push.deliver"
JOB_TIMEOUT = 60
# Longer than any attempt (a token fetch and a push, 10 s each at most, and two commits).
CLAIM_LEASE = timedelta(minutes=2)
# After the first attempt: 30 s, 2 min, 10 min, 30 min; a push later than that is stale.
RETRY_DELAYS = (
    timedelta(seconds=30),
    timedelta(minutes=2),
    timedelta(minutes=10),
    timedelta(minutes=30),
)
MAX_ATTEMPTS = len(RETRY_DELAYS) + 1
MAX_RETRY_AFTER = timedelta(minutes=30)
_STATUS_OF = {
    Verdict.DELIVERED: PushStatus.DELIVERED,
    Verdict.INVALID_TOKEN: PushStatus.FAILED,
    Verdict.FAILED: PushStatus.FAILED,
    Verdict.UNCONFIGURED: PushStatus.UNCONFIGURED,
}


@dataclass(frozen=True)
class AttemptPlan:
    """What one claimed attempt pushes, read inside the claim's unit of work."""

    delivery_id: str
    subscription_id: str
    channel: str
    token: str
    message: Message


def fan_out(notification: Notification) -> list[PushDelivery]:
    """A pending delivery per subscription of the notification's person, enqueued after the
    commit; no provider is called here (the API never waits for one)."""
    made = []
    for subscription in devices.for_user(notification.tenant_id, notification.user_id):
        delivery = PushDelivery(
            tenant_id=notification.tenant_id,
            notification_id=notification.id,
            subscription_id=subscription.id,
            push_channel=subscription.push_channel,
            status=PushStatus.PENDING.value,
            attempt_count=0,
            at=clock.now(),
            next_attempt_at=clock.now(),
            job_id=_new_job_id(),
        )
        db.session.add(delivery)
        made.append(delivery)
    if made:
        db.session.flush()
        jobs = [(d.id, d.job_id, None) for d in made]
        transaction.after_commit(partial(enqueue, jobs))
    return made


def _new_job_id() -> str:
    return f"push-{secrets.token_hex(10)}"


def enqueue(jobs: Sequence[tuple[str, str | None, datetime | None]]) -> int:
    """Put (delivery id, job id, when) on the queue, now or at `when`, and make sure a
    reconciler run is booked. A Redis failure is logged: the reconciler (or the next
    notification's booking of it) finds the deliveries again."""
    done = 0
    try:
        for delivery_id, job_id, when in jobs:
            if when is None:
                queue.enqueue(DELIVERY_JOB, delivery_id, job_id=job_id, job_timeout=JOB_TIMEOUT)
            else:
                queue.queue().enqueue_at(
                    when, DELIVERY_JOB, delivery_id, job_id=job_id, job_timeout=JOB_TIMEOUT
                )
            done += 1
        reconciler.RECONCILE.book()
    except RedisError as exc:
        log.warning("push deliveries not enqueued; the reconciler will", extra={"err": str(exc)})
    return done


def reschedule(deliveries: Sequence[PushDelivery]) -> None:
    """A fresh job for each delivery, enqueued after the commit (the reconciler's)."""
    for delivery in deliveries:
        delivery.job_id = _new_job_id()
    db.session.flush()
    jobs = [(d.id, d.job_id, None) for d in deliveries]
    if jobs:
        transaction.after_commit(partial(enqueue, jobs))


def claim(delivery_id: str) -> AttemptPlan | None:
    """Claim the delivery for one attempt if it is open, due and unclaimed; None otherwise.
    The caller commits the claim before pushing."""
    now = clock.now()
    claimed = db.session.execute(
        update(PushDelivery)
        .where(
            PushDelivery.id == delivery_id,
            PushDelivery.status.in_(OPEN_PUSH_STATUSES),
            PushDelivery.next_attempt_at <= now,
            or_(PushDelivery.claimed_until.is_(None), PushDelivery.claimed_until < now),
        )
        .values(claimed_until=now + CLAIM_LEASE)
        .execution_options(synchronize_session=False)
    )
    if claimed.rowcount != 1:
        return None
    delivery = db.session.get(PushDelivery, delivery_id, populate_existing=True)
    assert delivery is not None
    subscription = delivery.subscription
    if subscription is None:  # unsubscribed, moved or refused since the fan-out
        _close(delivery, PushStatus.FAILED, now, "the device was unsubscribed")
        return None
    # The delivery cascades with its notification.
    notification = Notification.get_for_tenant(delivery.notification_id, delivery.tenant_id)
    return AttemptPlan(
        delivery.id,
        subscription.id,
        delivery.push_channel,
        subscription.token,
        Message.of(notification),
    )


def send(plan: AttemptPlan) -> Answer:
    """The push itself, outside any unit of work (each provider call has its timeouts). An
    unexpected error counts as an outage, so the attempts run out instead of the delivery
    staying claimed and open for ever."""
    try:
        return providers.send(plan.channel, plan.token, plan.message)
    except Exception as exc:
        log.exception("push attempt failed unexpectedly", extra={"delivery_id": plan.delivery_id})
        return Answer(Verdict.RETRY, f"{type(exc).__name__}: {exc}"[:500])


def record_outcome(plan: AttemptPlan, answer: Answer) -> str | None:
    """Record what the provider said: delivered; failed (and the subscription removed, for a
    dead token); unconfigured; or, after an outage, the next attempt booked until
    MAX_ATTEMPTS are spent. Returns the status (None if the delivery was deleted meanwhile)."""
    delivery = db.session.get(PushDelivery, plan.delivery_id, populate_existing=True)
    if delivery is None:
        return None
    now = clock.now()
    delivery.attempt_count += 1
    delivery.claimed_until = None
    if answer.verdict is Verdict.RETRY:
        due = next_attempt_at(delivery.attempt_count, now, answer.retry_after)
        if due is not None:
            delivery.status = PushStatus.RETRYING.value
            delivery.error = answer.error
            delivery.next_attempt_at = due
            delivery.at = now
            delivery.job_id = _new_job_id()
            db.session.flush()
            job = (delivery.id, delivery.job_id, due)
            transaction.after_commit(partial(enqueue, [job]))
            return delivery.status
        _close(
            delivery,
            PushStatus.FAILED,
            now,
            f"gave up after {MAX_ATTEMPTS} attempts: {answer.error}",
        )
        return delivery.status
    _close(delivery, _STATUS_OF[answer.verdict], now, answer.error)
    if answer.verdict is Verdict.DELIVERED and delivery.subscription is not None:
        delivery.subscription.last_delivered_at = now
    elif answer.verdict is Verdict.INVALID_TOKEN:
        delivery.subscription_id = None
        db.session.flush()
        devices.refused_by_provider(delivery.tenant_id, plan.subscription_id, answer.error)
    db.session.flush()
    return delivery.status


def next_attempt_at(
    attempts_made: int, now: datetime, retry_after: float | None = None
) -> datetime | None:
    """When to try again after `attempts_made` attempts, or None when they are spent. A
    Retry-After defers the attempt, up to MAX_RETRY_AFTER (beyond it, that much)."""
    if attempts_made >= MAX_ATTEMPTS:
        return None
    delay = RETRY_DELAYS[attempts_made - 1]
    if retry_after is not None:
        delay = max(delay, min(timedelta(seconds=retry_after), MAX_RETRY_AFTER))
    return now + delay


def _close(delivery: PushDelivery, status: PushStatus, now: datetime, error: str | None) -> None:
    delivery.status = status.value
    delivery.error = error[:500] if error else None
    delivery.at = now
    delivery.next_attempt_at = None
    delivery.claimed_until = None
    db.session.flush()


def reconcile() -> int:
    """Enqueue again (after the caller's commit) every lost delivery, and book the next run
    while any delivery is open; returns how many were lost."""
    lost = reconciler.find_lost()
    reschedule(lost)
    if lost:
        log.info("push deliveries enqueued again", extra={"deliveries": len(lost)})
    if reconciler.open_count():
        transaction.after_commit(_book_next)
    return len(lost)


def _book_next() -> None:
    try:
        reconciler.RECONCILE.book()
    except RedisError as exc:
        log.warning("push reconciler not booked", extra={"err": str(exc)})

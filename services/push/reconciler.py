"""The push reconciler: open deliveries that are due, unclaimed and whose job is not alive (Redis
flushed, a worker killed, a crash between commit and enqueue) are enqueued again.

It books itself: every enqueue of push deliveries books a run RECONCILE.every ahead (job ids
name the slot, so a burst of notifications books one), and a run books the next while
deliveries are still open. `jobs.push.reconcile` runs it; jobs/push.py lists RECONCILE among
the periodic jobs the worker keeps booked."""

from __future__ import annotations

import logging
from datetime import timedelta

from redis.exceptions import RedisError
from sqlalchemy import func, or_, select

import clock
from extensions import db
from models import PushDelivery
from models.push import OPEN_PUSH_STATUSES
from services.core.queue import Periodic, job_is_alive

log = logging.getLogger(__name__)

RECONCILE = Periodic("push-reconcile", "jobs.push.reconcile", every=timedelta(minutes=2))
BATCH = 500


def lost_deliveries() -> list[PushDelivery]:
    now = clock.now()
    due = db.session.scalars(
        select(PushDelivery)
        .where(
            PushDelivery.status.in_(OPEN_PUSH_STATUSES),
            PushDelivery.next_attempt_at <= now,
            or_(PushDelivery.claimed_until.is_(None), PushDelivery.claimed_until < now),
        )
        .order_by(PushDelivery.next_attempt_at)
        .limit(BATCH)
    )
    return [delivery for delivery in due if not job_is_alive(delivery.job_id)]


def open_count() -> int:
    return (
        db.session.scalar(
            select(func.count())
            .select_from(PushDelivery)
            .where(PushDelivery.status.in_(OPEN_PUSH_STATUSES))
        )
        or 0
    )


def find_lost() -> list[PushDelivery]:
    """The lost deliveries; none when Redis is away (the next run tries again)."""
    try:
        return lost_deliveries()
    except RedisError as exc:
        log.warning("push reconciler skipped: Redis unreachable", extra={"error": str(exc)})
        return []

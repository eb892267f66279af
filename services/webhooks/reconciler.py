"""The reconciler: when open deliveries are due and no drain job is waiting to take them
(Redis flushed, a worker killed, a crash between commit and enqueue, or simply the next slot
of a schedule come round), it wakes a drain job. Run every minute by jobs/webhooks.py and by
hand with `flask webhooks reconcile`. The claim (deliveries.claimable) makes a drain job too
many harmless. A claim held by a job that is no longer alive (its worker died mid-send, and
the worker that buried it failed the job) is released at once rather than at its lease's end."""

from __future__ import annotations

import logging

from redis.exceptions import RedisError
from sqlalchemy import select, update

import clock
from extensions import db
from models import WebhookDelivery
from models.webhooks import OPEN_STATUSES
from services.core import queue
from services.webhooks import deliveries, wakeup

log = logging.getLogger(__name__)

BATCH = 500


def lost_deliveries() -> list[WebhookDelivery]:
    """Open deliveries due now and not claimed by a running attempt, when no drain job is
    waiting (a waiting one claims every due delivery when it starts). A drain that is
    running only takes them if it gets that far: one more job is harmless."""
    if wakeup.drain_is_waiting():
        return []
    return list(
        db.session.scalars(
            select(WebhookDelivery)
            .where(*deliveries.claimable(clock.now()))
            .order_by(WebhookDelivery.next_attempt_at)
            .limit(BATCH)
        )
    )


def release_abandoned_claims() -> int:
    """Release the claims of open deliveries whose claiming job is no longer alive (failed,
    finished, or gone from Redis); how many. A claim without a job (an attempt run inline by
    `flask webhooks reconcile --inline`) keeps its lease."""
    now = clock.now()
    jobs = set(
        db.session.scalars(
            select(WebhookDelivery.job_id)
            .where(
                WebhookDelivery.status.in_(OPEN_STATUSES),
                WebhookDelivery.claimed_until >= now,
                WebhookDelivery.job_id.is_not(None),
            )
            .distinct()
            .limit(BATCH)
        )
    )
    dead = [job_id for job_id in jobs if not queue.job_is_alive(job_id)]
    if not dead:
        return 0
    released = db.session.execute(
        update(WebhookDelivery)
        .where(
            WebhookDelivery.job_id.in_(dead),
            WebhookDelivery.status.in_(OPEN_STATUSES),
            WebhookDelivery.claimed_until >= now,
        )
        .values(claimed_until=None)
        .execution_options(synchronize_session=False)
    )
    log.warning("webhook claims of dead jobs released", extra={"jobs": len(dead)})
    return released.rowcount


def reconcile() -> int:
    """Wake a drain job (after the caller's commit) for the lost deliveries, those whose
    claim died with its job included; returns how many there are (up to BATCH). Nothing when
    Redis is away: the next run tries again."""
    try:
        release_abandoned_claims()
        lost = lost_deliveries()
    except RedisError as exc:
        log.warning("webhook reconciler skipped: Redis unreachable", extra={"error": str(exc)})
        return 0
    deliveries.reschedule(lost, replace=True)
    if lost:
        log.info("webhook deliveries enqueued again", extra={"deliveries": len(lost)})
    return len(lost)

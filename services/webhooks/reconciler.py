"""The reconciler: when open deliveries are due and no drain job is waiting to take them
(Redis flushed, a worker killed, a crash between commit and enqueue, or simply the next slot
of a schedule come round), it wakes a drain job. Run every minute by jobs/webhooks.py and by
hand with `flask webhooks reconcile`. The claim (deliveries.claimable) makes a drain job too
many harmless."""

from __future__ import annotations

import logging

from redis.exceptions import RedisError
from sqlalchemy import select

import clock
from extensions import db
from models import WebhookDelivery
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


def reconcile() -> int:
    """Wake a drain job (after the caller's commit) for the lost deliveries; returns how many
    there are (up to BATCH). Nothing when Redis is away: the next run tries again."""
    try:
        lost = lost_deliveries()
    except RedisError as exc:
        log.warning("webhook reconciler skipped: Redis unreachable", extra={"error": str(exc)})
        return 0
    deliveries.reschedule(lost, replace=True)
    if lost:
        log.info("webhook deliveries enqueued again", extra={"deliveries": len(lost)})
    return len(lost)

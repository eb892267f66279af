"""The reconciler: every open delivery that is due and whose job is not alive (Redis flushed,
a worker killed, a crash between commit and enqueue, or simply the next slot of its schedule
come round) is enqueued again. Run every minute by jobs/housekeeping.py and by hand with
`flask webhooks reconcile`. The claim in deliveries.claim makes a duplicate job harmless."""

from __future__ import annotations

import logging

from redis.exceptions import RedisError
from sqlalchemy import or_, select

import clock
from extensions import db
from models import WebhookDelivery
from models.webhook import OPEN_STATUSES
from services.core.queue import job_is_alive
from services.webhooks import deliveries

log = logging.getLogger(__name__)

BATCH = 500


def lost_deliveries() -> list[WebhookDelivery]:
    """Open deliveries due now, not claimed by a running attempt, whose job is not alive."""
    now = clock.now()
    due = db.session.scalars(
        select(WebhookDelivery)
        .where(
            WebhookDelivery.status.in_(OPEN_STATUSES),
            WebhookDelivery.next_attempt_at <= now,
            or_(WebhookDelivery.claimed_until.is_(None), WebhookDelivery.claimed_until < now),
        )
        .order_by(WebhookDelivery.next_attempt_at)
        .limit(BATCH)
    )
    return [delivery for delivery in due if not job_is_alive(delivery.job_id)]


def reconcile() -> int:
    """Enqueue (after the caller's commit) every lost delivery; returns how many. Nothing when
    Redis is away: the next run tries again."""
    try:
        lost = lost_deliveries()
    except RedisError as exc:
        log.warning("webhook reconciler skipped: Redis unreachable", extra={"error": str(exc)})
        return 0
    deliveries.reschedule(lost)
    if lost:
        log.info("webhook deliveries enqueued again", extra={"deliveries": len(lost)})
    return len(lost)

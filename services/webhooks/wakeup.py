"""Waking the drain job (jobs/webhooks.py): a commit with deliveries to attempt enqueues it
unless one is already waiting, so a thousand commits enqueue one job. A mark in Redis says
one is waiting; the drain clears it as it starts, before it looks for work, so a delivery
committed after that wakes a new one and none is missed."""

from __future__ import annotations

import logging
from datetime import timedelta

from redis.exceptions import RedisError

from services.core import queue

log = logging.getLogger(__name__)

DRAIN_JOB = "jobs.webhooks.drain"
# The drain job's mark in Redis (services/core/queue.enqueue_unless_waiting).
WAKE_KEY = "webhooks-drain"
# A drain job still waiting after this (a long queue) gets a twin; the twin finds less to do.
WAKE_MARK_LASTS = timedelta(minutes=5)
# RQ's limit on one drain job: DRAIN_SECONDS (jobs/webhooks.py) plus one batch at worst.
DRAIN_JOB_TIMEOUT = 240


def wake(replace: bool = False) -> str | None:
    """Make sure a drain job is on its way (one waiting job for any number of commits); its
    id, or None when one was waiting already. A Redis failure is logged and left to the
    reconciler, which finds the deliveries due and no job waiting. `replace`: the waiting job
    is known to be lost (the reconciler), enqueue another whatever its mark says."""
    try:
        return queue.enqueue_unless_waiting(
            WAKE_KEY,
            DRAIN_JOB,
            waiting_for=WAKE_MARK_LASTS,
            replace=replace,
            job_timeout=DRAIN_JOB_TIMEOUT,
        )
    except RedisError as exc:
        log.warning("webhook drain not enqueued; the reconciler will", extra={"err": str(exc)})
        return None


def woken() -> None:
    """The drain job starts: deliveries committed from now on wake another one."""
    queue.taken(WAKE_KEY)


def drain_is_waiting() -> bool:
    """Whether a drain job is queued (or just starting) that will claim what is due now."""
    return queue.job_is_alive(queue.waiting_job(WAKE_KEY))

"""The daily housekeeping job (trash purge, expired Idempotency-Key records, temporary files
of crashed uploads) and its schedule.

Scheduling choice: each run enqueues the next one with RQ's `enqueue_at` (the worker runs
RQ's scheduler), and `flask worker` calls `ensure_scheduled()` at start so a flushed Redis
or a first deployment gets a run too. Job ids name the day (`purge-trash-YYYYMMDD`), so
several workers starting at once schedule the same job, not several."""

from __future__ import annotations

import logging
from datetime import datetime, time, timedelta

from redis.exceptions import RedisError

import clock
import jobs
from services import idempotency, purge
from services.blobs import blob_store

log = logging.getLogger(__name__)

PURGE_AT = time(3, 0)  # UTC; a quiet hour for most tenants


# A temporary blob file older than this belongs to no upload still running.
TEMPORARY_FILE_MAX_AGE = timedelta(days=1)


def purge_trash() -> dict[str, int]:
    """RQ job: purge the trash, expired idempotency records and stale temporary files, then
    book tomorrow's run."""
    report = purge.purge_trash()
    expired_keys = idempotency.purge_expired()
    swept = blob_store().sweep_temporary(TEMPORARY_FILE_MAX_AGE.total_seconds())
    schedule_next()
    return {**report.as_dict(), "idempotencyRecords": expired_keys, "temporaryFiles": swept}


def next_run(now: datetime | None = None) -> datetime:
    now = now or clock.now()
    today = datetime.combine(now.date(), PURGE_AT, tzinfo=now.tzinfo)
    return today if today > now else today + timedelta(days=1)


def schedule_next(now: datetime | None = None) -> str:
    when = next_run(now)
    job_id = f"purge-trash-{when:%Y%m%d}"
    jobs.queue().enqueue_at(when, purge_trash, job_id=job_id, job_timeout=3600)
    return job_id


def ensure_scheduled() -> str | None:
    """Called when a worker starts; a Redis outage only delays the purge, never the worker."""
    try:
        return schedule_next()
    except RedisError as exc:
        log.warning("could not schedule the trash purge", extra={"error": str(exc)})
        return None

"""The daily housekeeping job and its schedule: empty the trash, expire Idempotency-Key
records, remove temporary files of crashed uploads and blobs no row references, tell admins
about API keys due for rotation, and merge SQLite's full-text index into one segment.

Scheduling choice: each run enqueues the next one with RQ's `enqueue_at` (the worker runs
RQ's scheduler), and `flask worker` calls `ensure_scheduled()` at start so a flushed Redis
or a first deployment gets a run too. Job ids name the day (`housekeeping-YYYYMMDD`), so
several workers starting at once schedule the same job, not several."""

from __future__ import annotations

import logging
from datetime import datetime, time, timedelta

from redis.exceptions import RedisError

import clock
from jobs import webhooks, workflows
from services.analytics import requests as analytics_requests
from services.core import idempotency, queue, transaction
from services.documents import blobs, purge
from services.documents.blobs import blob_store
from services.notifications import causes
from services.push import reconciler as push_reconciler
from services.search import common_words, index_merge, recovery

log = logging.getLogger(__name__)

RUN_AT = time(3, 0)  # UTC; a quiet hour for most tenants


# A temporary blob file older than this belongs to no upload still running.
TEMPORARY_FILE_MAX_AGE = timedelta(days=1)


JOB_NAME = "jobs.housekeeping.daily_housekeeping"


def daily_housekeeping() -> dict[str, int]:
    """RQ job: purge the trash, expired idempotency records and stale temporary files, remind
    admins of keys due for rotation, merge SQLite's search index and list its common words'
    best matches, then book tomorrow's run."""
    report = purge.purge_trash()  # commits per batch
    expired_keys = transaction.transactional(idempotency.purge_expired)()
    swept = blob_store().sweep_temporary(TEMPORARY_FILE_MAX_AGE.total_seconds())
    orphans = blobs.sweep_unreferenced(TEMPORARY_FILE_MAX_AGE.total_seconds())
    reminders = transaction.transactional(causes.remind_key_rotations)()
    request_hours = transaction.transactional(analytics_requests.roll_up)()
    schedule_next()
    merge_steps = index_merge.merge()  # commits per step; last: if it fails, tomorrow is booked
    common = common_words.refresh()  # commits per word
    return {
        **report.as_dict(),
        "idempotencyRecords": expired_keys,
        "temporaryFiles": swept,
        "unreferencedBlobs": orphans,
        "rotationReminders": reminders,
        "apiRequestHours": request_hours,
        "searchIndexMergeSteps": merge_steps,
        "commonWordsListed": common.listed,
    }


RECOVERY_JOB = "jobs.housekeeping.recover_lost_work"
RECOVERY_EVERY = timedelta(minutes=5)


def recover_lost_work() -> dict[str, int]:
    """RQ job, every RECOVERY_EVERY: enqueue again the work the database says is pending but
    no job carries any more (services/search/recovery.py), book the next run, then merge the
    segments SQLite's search index holds several of on one level (index_merge.tidy)."""
    extractions = recovery.recover_extractions()
    schedule_recovery()
    tidied = index_merge.tidy()  # commits per step
    return {"extractions": extractions, "searchIndexTidySteps": tidied}


def schedule_recovery(now: datetime | None = None, unless_booked: bool = False) -> str | None:
    """Book the next recovery run (services/core/queue.book_periodic)."""
    return queue.book_periodic(
        "recover-lost-work",
        RECOVERY_JOB,
        RECOVERY_EVERY,
        now=now,
        job_timeout=600,
        unless_booked=unless_booked,
    )


def next_run(now: datetime | None = None) -> datetime:
    now = now or clock.now()
    today = datetime.combine(now.date(), RUN_AT, tzinfo=now.tzinfo)
    return today if today > now else today + timedelta(days=1)


def schedule_next(now: datetime | None = None) -> str:
    when = next_run(now)
    job_id = queue.named_job_id("housekeeping", f"{when:%Y%m%d}")
    queue.queue().enqueue_at(when, JOB_NAME, job_id=job_id, job_timeout=3600)
    return job_id


def ensure_scheduled() -> str | None:
    """Called when a worker starts, and by its maintenance every few minutes (which revives
    the chains a Redis flush ended): book the daily housekeeping, the recovery runs, the
    webhook reconciler (every minute, jobs/webhooks.py), the workflow sweep (every five
    minutes, jobs/workflows.py) and the push reconciler. A Redis outage only delays them,
    never the worker."""
    try:
        schedule_recovery(unless_booked=True)
        webhooks.schedule_reconcile(unless_booked=True)
        workflows.schedule_sweep(unless_booked=True)
        push_reconciler.book(unless_booked=True)  # it books itself while pushes are open
        return schedule_next()
    except RedisError as exc:
        log.warning("could not schedule the housekeeping jobs", extra={"error": str(exc)})
        return None

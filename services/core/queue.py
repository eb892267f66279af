"""The job queues on Redis (RQ). Services enqueue jobs by their dotted name, so that no service
imports the jobs package (jobs import services, never the other way round); the worker
(jobs/worker.py) resolves the name when it runs the job."""

from __future__ import annotations

import re
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

from flask import current_app
from redis.exceptions import RedisError
from rq import Queue
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus
from rq.registry import ScheduledJobRegistry

import clock
from extensions import redis_store

OCR_QUEUE = "ocr"
# In priority order: a worker takes its next job from the first queue that has one, so a text
# upload waits at most for the OCR job already running, never for the OCR queue behind it.
QUEUE_NAMES = ("default", OCR_QUEUE)


def queue(name: str = "default") -> Queue:
    return Queue(redis_store.key("queue", name), connection=redis_store.client)


def enqueue(job_name: str, *args: Any, queue_name: str = "default", **kwargs: Any) -> Job:
    """Enqueue the job function `job_name` ("jobs.search.extract_document")."""
    return queue(queue_name).enqueue(job_name, *args, **kwargs)


# A started job whose work horse has not sent a heartbeat for this long died with it.
HEARTBEAT_LOST_AFTER = timedelta(minutes=5)
_WAITING = {JobStatus.QUEUED, JobStatus.DEFERRED, JobStatus.SCHEDULED}


def job_is_alive(job_id: str | None) -> bool:
    """Whether an RQ job still carries its work: waiting, scheduled (a retry), or running
    with a recent heartbeat."""
    if not job_id:
        return False
    try:
        job = Job.fetch(job_id, connection=redis_store.client)
    except NoSuchJobError:
        return False
    status = job.get_status(refresh=False)
    if status in _WAITING:
        return True
    if status == JobStatus.STARTED:
        beat = job.last_heartbeat
        if beat is not None and beat.tzinfo is None:
            beat = beat.replace(tzinfo=UTC)
        return beat is not None and datetime.now(UTC) - beat < HEARTBEAT_LOST_AFTER
    return False


# --- one waiting job for many requests -------------------------------------------------------


def enqueue_unless_waiting(
    key: str,
    job_name: str,
    *args: Any,
    waiting_for: timedelta,
    replace: bool = False,
    **kwargs: Any,
) -> str | None:
    """Enqueue `job_name` unless a job enqueued under `key` is still waiting for a worker:
    many commits wake one job. The job calls `taken(key)` before it looks for work, so work
    added after that wakes a new job. The mark lapses after `waiting_for` (a job queued
    behind others for longer gets a twin, which finds nothing to do); `replace` enqueues
    whatever the mark says (its job is known to be lost). Returns the new job's id, None
    when one was waiting."""
    job_id = f"{key}-{secrets.token_hex(8)}"
    marker = redis_store.key("waiting", key)
    if not redis_store.client.set(marker, job_id, nx=not replace, ex=waiting_for):
        return None
    try:
        enqueue(job_name, *args, job_id=job_id, **kwargs)
    except RedisError:
        redis_store.client.delete(marker)  # best effort: the mark must not hide a lost job
        raise
    return job_id


def waiting_job(key: str) -> str | None:
    """The id of the job enqueued under `key` that has not started yet, if any."""
    value = redis_store.client.get(redis_store.key("waiting", key))
    return value.decode() if isinstance(value, bytes) else value


def taken(key: str) -> None:
    """Called by the job enqueued under `key` when it starts, before it looks for work."""
    redis_store.client.delete(redis_store.key("waiting", key))


def book_periodic(
    prefix: str,
    job_name: str,
    every: timedelta,
    *,
    now: datetime | None = None,
    job_timeout: int = 300,
    unless_booked: bool = False,
) -> str | None:
    """Book the next run of a job that books its own next run (a chain: the webhook and push
    reconcilers, the recovery and workflow sweeps). Ids name the slot, so several workers
    booking at once book one job.

    `unless_booked` is for whoever revives chains (a worker starting, its maintenance every
    few minutes, after a Redis flush): it books nothing while the chain is alive (a run
    waiting in one of the last slots or running), so chains never multiply. A run's own
    booking of its successor is unconditional: it would see itself alive."""
    now = now or clock.now()
    when = now + every
    slot = int(when.timestamp() // every.total_seconds())
    if unless_booked and any(
        _will_run(named_job_id(prefix, str(s))) for s in (slot - 2, slot - 1, slot)
    ):
        return None
    job_id = named_job_id(prefix, str(slot))
    queue().enqueue_at(when, job_name, job_id=job_id, job_timeout=job_timeout)
    return job_id


def named_job_id(*parts: str) -> str:
    """A job id that names what it is for ("housekeeping-20261123-dms"), so that booking it
    twice books one job. RQ's job keys ignore REDIS_KEY_PREFIX, so the id ends with it: two
    deployments (or test runs) sharing a Redis server never take each other's jobs."""
    deployment = re.sub(r"[^A-Za-z0-9_-]", "_", current_app.config["REDIS_KEY_PREFIX"])
    return "-".join((*parts, deployment))


def _will_run(job_id: str) -> bool:
    """Alive, and for a scheduled job still booked: a job whose hash says "scheduled" but
    whose booking was lost (a partial flush, an eviction) will never run."""
    if not job_is_alive(job_id):
        return False
    job = Job.fetch(job_id, connection=redis_store.client)
    if job.get_status(refresh=False) == JobStatus.SCHEDULED:
        return job_id in ScheduledJobRegistry(queue=queue(), connection=redis_store.client)
    return True

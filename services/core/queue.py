"""The job queues on Redis (RQ), and the bookings of periodic jobs. Services enqueue jobs by
their dotted name, so that no service imports the jobs package (jobs import services, never
the other way round); the worker (jobs/worker.py) resolves the name when it runs the job."""

from __future__ import annotations

import logging
import re
import secrets
from contextlib import suppress
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from typing import Any

from flask import current_app
from redis.exceptions import RedisError
from rq import Queue
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus
from rq.registry import ScheduledJobRegistry

import clock
from extensions import redis_store

log = logging.getLogger(__name__)

OCR_QUEUE = "ocr"
# In priority order: a worker takes its next job from the first queue that has one, so a text
# upload waits at most for the OCR job already running, never for the OCR queue behind it.
QUEUE_NAMES = ("default", OCR_QUEUE)


def queue(name: str = "default") -> Queue:
    return Queue(redis_store.key("queue", name), connection=redis_store.client)


def enqueue(job_name: str, *args: Any, queue_name: str = "default", **kwargs: Any) -> Job:
    """Enqueue the job function `job_name` ("jobs.search.extract_document")."""
    return queue(queue_name).enqueue(job_name, *args, **kwargs)


def enqueue_many(
    job_name: str,
    calls: list[tuple],
    *,
    queue_name: str = "default",
    timeout: int | None = None,
    retry: Any = None,
) -> list[Job]:
    """Enqueue `job_name` once per tuple of arguments in `calls`, in one round trip to Redis
    (a pipeline): a batch of documents' jobs at the cost of one."""
    if not calls:
        return []
    target = queue(queue_name)
    return target.enqueue_many(
        [Queue.prepare_data(job_name, args, timeout=timeout, retry=retry) for args in calls]
    )


def tenant_batches(calls: list[tuple[str, str, int]], size: int) -> list[tuple[str, list[list]]]:
    """(tenant, document, version)s grouped for batch jobs: runs of one tenant's documents, at
    most `size` each, as (tenant, [[document, version], …]) in the order given."""
    batches: list[tuple[str, list[list]]] = []
    for tenant_id, document_id, version_number in calls:
        if not batches or batches[-1][0] != tenant_id or len(batches[-1][1]) >= size:
            batches.append((tenant_id, []))
        batches[-1][1].append([document_id, version_number])
    return batches


# How many waiting jobs at the head of a queue absorb_waiting looks at.
ABSORB_SCAN = 200


def absorb_waiting(job: Job, target: Queue, size: int) -> int:
    """Fold into `job`, a batch job `(tenant, [[document, version], …])` a worker has just
    taken from `target`, the documents of the jobs of its kind and tenant waiting there, up
    to `size`: uploads that came one by one then share one work horse, two commits and one
    follow-up each. A job is taken off the queue by LREM, which only one worker can win; the
    merged arguments are saved in one transaction with the absorbed jobs' deletion, so a
    retry covers every document. How many were absorbed (0 on a Redis error: the job stays
    as it was, and the jobs taken off go back to the queue)."""
    original = job.args
    if len(original[1]) >= size:
        return 0
    tenant_id, items = original[0], list(original[1])
    connection = target.connection
    absorbed: list[Job] = []
    try:
        waiting = Job.fetch_many(target.get_job_ids(0, ABSORB_SCAN), connection=connection)
        for other in waiting:
            if len(items) >= size:
                break
            if other is None or other.func_name != job.func_name or other.args[0] != tenant_id:
                continue
            if len(items) + len(other.args[1]) > size:
                continue
            if connection.lrem(target.key, 1, other.id) == 1:  # ours, no one else's
                items.extend(other.args[1])
                absorbed.append(other)
        if absorbed:
            job.args = (tenant_id, items)
            with connection.pipeline() as transaction:
                job.save(pipeline=transaction, include_meta=False, include_result=False)
                for other in absorbed:
                    other.delete(pipeline=transaction, remove_from_queue=False)
                transaction.execute()
    except RedisError as exc:
        log.warning("waiting jobs not absorbed", extra={"job_id": job.id, "error": str(exc)})
        job.args = original
        if absorbed:
            with suppress(RedisError):  # best effort: Redis failing again leaves them out
                connection.rpush(target.key, *[other.id for other in absorbed])
        return 0
    if absorbed:
        log.info(
            "absorbed waiting jobs",
            extra={"job_id": job.id, "absorbed": len(absorbed), "documents": len(items)},
        )
    return len(absorbed)


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


def enqueue_for_all(
    keys: list[str], job_name: str, *args: Any, waiting_for: timedelta, **kwargs: Any
) -> str:
    """Enqueue one `job_name` that does the work of every key in `keys` (a batch of new
    content: its waiting marks, set over any earlier ones, name this job, so a request for
    any of them meanwhile wakes no other). Each key's job calls `taken(key)` as it starts.
    Returns the job's id."""
    job_id = f"batch-{secrets.token_hex(8)}"
    with redis_store.client.pipeline(transaction=False) as marks:
        for key in keys:
            marks.set(redis_store.key("waiting", key), job_id, ex=waiting_for)
        marks.execute()
    try:
        enqueue(job_name, *args, job_id=job_id, **kwargs)
    except RedisError:
        redis_store.client.delete(*[redis_store.key("waiting", key) for key in keys])
        raise
    return job_id


def taken_all(keys: list[str]) -> None:
    """`taken` for every key of a batch's job, in one round trip."""
    if keys:
        redis_store.client.delete(*[redis_store.key("waiting", key) for key in keys])


def waiting_job(key: str) -> str | None:
    """The id of the job enqueued under `key` that has not started yet, if any."""
    value = redis_store.client.get(redis_store.key("waiting", key))
    return value.decode() if isinstance(value, bytes) else value


def taken(key: str) -> None:
    """Called by the job enqueued under `key` when it starts, before it looks for work."""
    redis_store.client.delete(redis_store.key("waiting", key))


# --- periodic jobs ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Periodic:
    """A job the worker keeps booked: `jobs/<capability>.py` lists its own in `PERIODIC`, and
    the worker's scheduling (jobs/worker.ensure_scheduled, at start and at each maintenance)
    books each. Either a chain run `every` so often, whose runs each book their successor, or
    a daily run at `daily_at` UTC, which books the next day's as it starts. `name` starts
    every job id of it, so that several workers booking at once book one job, not several."""

    name: str
    job: str  # the job function's dotted path: "jobs.webhooks.reconcile"
    every: timedelta | None = None
    daily_at: time | None = None
    timeout: int = 300  # seconds: RQ's job timeout

    def __post_init__(self) -> None:
        if (self.every is None) == (self.daily_at is None):
            raise ValueError(f"{self.name}: a periodic job runs `every` so often or `daily_at`")

    def book(self, now: datetime | None = None, unless_booked: bool = False) -> str | None:
        """Book the next run; its job id, None when `unless_booked` found the chain alive."""
        if self.every is not None:
            return book_periodic(
                self.name,
                self.job,
                self.every,
                now=now,
                job_timeout=self.timeout,
                unless_booked=unless_booked,
            )
        when = self.next_run(now)
        # The id names the day: booking it again (any worker, any time) books the same job.
        job_id = named_job_id(self.name, f"{when:%Y%m%d}")
        queue().enqueue_at(when, self.job, job_id=job_id, job_timeout=self.timeout)
        return job_id

    def next_run(self, now: datetime | None = None) -> datetime:
        """When a daily job runs next: today at `daily_at` if that is still ahead, else tomorrow."""
        assert self.daily_at is not None
        now = now or clock.now()
        today = datetime.combine(now.date(), self.daily_at, tzinfo=now.tzinfo)
        return today if today > now else today + timedelta(days=1)


def book_periodic(
    prefix: str,
    job_name: str,
    every: timedelta,
    *,
    now: datetime | None = None,
    job_timeout: int = 300,
    unless_booked: bool = False,
) -> str | None:
    """Book the next run of a job that books its own next run (a chain, `Periodic.every`: the
    webhook and push reconcilers, the recovery and workflow sweeps). Ids name the slot, so
    several workers booking at once book one job.

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
    """A job id that names what it is for ("documents-daily-20261123-dms"), so that booking it
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

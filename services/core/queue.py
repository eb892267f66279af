"""The job queues on Redis (RQ). Services enqueue jobs by their dotted name, so that no service
imports the jobs package (jobs import services, never the other way round); the worker
(jobs/worker.py) resolves the name when it runs the job."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from rq import Queue
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus

from extensions import redis_store

OCR_QUEUE = "ocr"
# In priority order: a worker takes its next job from the first queue that has one, so a text
# upload waits at most for the OCR job already running, never for the OCR queue behind it.
QUEUE_NAMES = ("default", OCR_QUEUE)


def queue(name: str = "default") -> Queue:
    return Queue(redis_store.key("queue", name), connection=redis_store.client)


def enqueue(job_name: str, *args: Any, queue_name: str = "default", **kwargs: Any) -> Job:
    """Enqueue the job function `job_name` ("jobs.extraction.extract_document")."""
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

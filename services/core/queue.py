"""The job queues on Redis (RQ). Services enqueue jobs by their dotted name, so that no service
imports the jobs package (jobs import services, never the other way round); the worker
(jobs/worker.py) resolves the name when it runs the job."""

from __future__ import annotations

from typing import Any

from rq import Queue
from rq.job import Job

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

"""Background jobs on RQ: the queue, enqueueing, and a worker that runs jobs in an app context.

Job functions live in modules of this package and stay thin: they call services."""

from __future__ import annotations

from typing import Any

from flask import Flask
from rq import Queue, Worker
from rq.job import Job

from extensions import redis_store

QUEUE_NAMES = ("default",)


def queue(name: str = "default") -> Queue:
    return Queue(redis_store.key("queue", name), connection=redis_store.client)


def enqueue(func: Any, *args: Any, queue_name: str = "default", **kwargs: Any) -> Job:
    return queue(queue_name).enqueue(func, *args, **kwargs)


class AppWorker(Worker):
    """An RQ worker whose jobs run inside the Flask app context (in the forked work horse)."""

    flask_app: Flask | None = None

    def perform_job(self, job: Job, queue: Queue) -> bool:
        assert self.flask_app is not None
        with self.flask_app.app_context():
            return super().perform_job(job, queue)


def run_worker(app: Flask, burst: bool = False) -> None:
    """`flask worker`: every queue of the app, with the scheduler (retries and delayed jobs)."""
    AppWorker.flask_app = app
    with app.app_context():
        worker = AppWorker(
            [queue(n) for n in QUEUE_NAMES], connection=redis_store.client, name=None
        )
        from jobs.purge import ensure_scheduled

        ensure_scheduled()  # the daily trash purge (jobs/purge.py)
        worker.work(with_scheduler=True, burst=burst)

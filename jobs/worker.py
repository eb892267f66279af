"""`flask worker`: an RQ worker for the app's queues (in priority order, services/core/queue.py),
with RQ's scheduler (retries and delayed jobs), whose jobs run inside the Flask app context
in the forked work horse; extraction jobs run there under a memory ceiling and a CPU budget."""

from __future__ import annotations

import os
import resource
import signal

from flask import Flask
from rq import Queue, Worker
from rq.job import Job

from extensions import redis_store
from jobs import housekeeping
from jobs.extraction import JOBS_UNDER_LIMITS
from services.core import queue
from services.search import limits

MiB = 1024 * 1024
# Seconds past the CPU budget before the kernel kills the horse: room to record the failure.
CPU_GRACE_SECONDS = 10


class AppWorker(Worker):
    """An RQ worker whose jobs run inside the Flask app context."""

    flask_app: Flask | None = None

    def perform_job(self, job: Job, queue: Queue) -> bool:
        assert self.flask_app is not None
        with self.flask_app.app_context():
            return super().perform_job(job, queue)

    def main_work_horse(self, job: Job, queue: Queue) -> None:
        # The child side of the fork only: the limits end with the horse and never reach the
        # worker itself; a SimpleWorker, which runs jobs in its own process, never comes here.
        if job.func_name in JOBS_UNDER_LIMITS:
            assert self.flask_app is not None
            limit_work_horse(
                self.flask_app.config["DMS_EXTRACT_MEMORY_MB"],
                self.flask_app.config["DMS_EXTRACT_CPU_SECONDS"],
            )
        super().main_work_horse(job, queue)


def limit_work_horse(memory_mb: int, cpu_seconds: int) -> None:
    """Cap what this process's address space may grow by, and its CPU time (0 leaves either
    unlimited). The OCR programs it runs inherit both."""
    if memory_mb > 0:
        # Above the horse's size at the fork, not from zero: the worker's own address space
        # varies with what it loaded and the threads it ever ran (64 MiB malloc arenas each).
        hard = resource.getrlimit(resource.RLIMIT_AS)[1]
        ceiling = _address_space() + memory_mb * MiB
        resource.setrlimit(resource.RLIMIT_AS, (_at_most(ceiling, hard), hard))
        limits.note_memory_ceiling(memory_mb)
    if cpu_seconds > 0:
        hard = _at_most(cpu_seconds + CPU_GRACE_SECONDS, resource.getrlimit(resource.RLIMIT_CPU)[1])
        signal.signal(signal.SIGXCPU, limits.CpuAlarm(cpu_seconds))
        resource.setrlimit(resource.RLIMIT_CPU, (_at_most(cpu_seconds, hard), hard))


def _address_space() -> int:
    """This process's mapped address space now (Linux), 0 where /proc does not say."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return 0


def _at_most(value: int, hard: int) -> int:
    return value if hard == resource.RLIM_INFINITY else min(value, hard)


def run_worker(app: Flask, burst: bool = False) -> None:
    """Work every queue of the app, with the scheduler; book the daily housekeeping first."""
    AppWorker.flask_app = app
    with app.app_context():
        worker = AppWorker(
            [queue.queue(n) for n in queue.QUEUE_NAMES], connection=redis_store.client, name=None
        )
        housekeeping.ensure_scheduled()
        worker.work(with_scheduler=True, burst=burst)

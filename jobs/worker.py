"""`flask worker`: an RQ worker for the app's queues (in priority order, services/core/queue.py),
with RQ's scheduler (retries and delayed jobs), whose jobs run inside the Flask app context.
Extraction and thumbnail jobs run in a forked work horse under a memory ceiling and a CPU
budget per document (a run works a batch of documents); every other job (webhook
deliveries, sweeps) runs in the worker's own process, which keeps what it warmed up
(compiled SQL statements, pooled connections) from one job to the next.

The worker keeps the periodic jobs booked (`ensure_scheduled`): those of what all share
(jobs/core.py) and those each capability with a `jobs` layer in capabilities.py declares in
the `PERIODIC` list of its jobs/<name>.py. A new capability's periodic job needs no change
here.

A worker that dies without its warm shutdown (`kill -9`, the OOM killer, a lost host) leaves
RQ's scheduler lock, its registration and the jobs it was running behind. Every worker runs a
scheduler on standby (`StandbyScheduler`) that takes the lock as soon as it is free, and a
worker starting (or at its maintenance) buries the dead workers of its own host
(`AppWorker.bury_dead_workers`), so their jobs fail now, not when their heartbeat lapses.

The scheduler is a thread of the worker's process, not the process RQ forks for it: it only
moves due jobs onto their queues once a second, and a process of its own held a second copy
of the app (about 70 MiB PSS, bench/footprint.py). It dies with the worker, so a worker
killed outright leaves no orphan scheduler behind."""

from __future__ import annotations

import importlib
import logging
import os
import resource
import signal
import socket
import threading
from datetime import datetime

from flask import Flask
from redis.exceptions import RedisError
from rq import Queue, SimpleWorker, Worker
from rq.defaults import DEFAULT_LOGGING_DATE_FORMAT, DEFAULT_LOGGING_FORMAT
from rq.exceptions import SchedulerNotFound
from rq.executions import Execution
from rq.job import Job
from rq.registry import StartedJobRegistry
from rq.scheduler import RQScheduler
from rq.scripts import release_lock
from rq.worker import WorkerStatus

import capabilities
from extensions import db, redis_store
from jobs import core, search, thumbnails
from services.core import queue
from services.core.queue import Periodic, absorb_waiting
from services.search import limits

log = logging.getLogger(__name__)

MiB = 1024 * 1024
# The jobs that run in a forked work horse under the extraction limits (text extraction, OCR
# and thumbnails), and how many documents a run works.
JOBS_UNDER_LIMITS = {**search.JOBS_UNDER_LIMITS, **thumbnails.JOBS_UNDER_LIMITS}
# The jobs whose work horse (and the programs it runs) yields the CPU to everything else: OCR,
# so that imports, uploads and text-like documents' extraction are not slowed by scans.
LOW_PRIORITY_JOBS = search.LOW_PRIORITY_JOBS
LOW_PRIORITY_NICENESS = 10
# The batch jobs of one tenant's documents, and how many documents a run of each takes at most:
# waiting jobs of the same kind and tenant are folded into the one a worker takes
# (queue.absorb_waiting), so single uploads share a work horse as an import's batch does.
BATCH_JOBS = {**search.BATCH_JOBS, **thumbnails.BATCH_JOBS}
# Seconds past the CPU budget before the kernel kills the horse: room to record the failure.
CPU_GRACE_SECONDS = 10
# How often a standby scheduler tries for the lock. RQ's lock lasts 61 s past its holder's
# last heartbeat, so a holder that died on another host is replaced within 71 s.
SCHEDULER_RETRY_SECONDS = 10


def runs_in_horse(job: Job) -> bool:
    """Whether `job` needs a forked work horse: only the jobs under the extraction limits do
    (the limits must end with the process that ran the job)."""
    return job.func_name in JOBS_UNDER_LIMITS


class AppWorker(Worker):
    """An RQ worker whose jobs run inside the Flask app context: in a forked work horse for
    the jobs under limits, in this process for the others. A forked horse starts cold (each
    SQL statement compiled again, new connections) and what it warms dies with it, so a short
    job costs many times more in a horse than in process."""

    flask_app: Flask | None = None

    def execute_job(self, job: Job, queue: Queue) -> None:
        if runs_in_horse(job):
            size = BATCH_JOBS.get(job.func_name)
            if size is not None:
                absorb_waiting(job, queue, size)
            super().execute_job(job, queue)
            return
        # SimpleWorker's way: RQ's job timeout still applies (SIGALRM in perform_job).
        self.prepare_execution(job)
        self.perform_job(job, queue)
        self.set_state(WorkerStatus.IDLE)

    def get_heartbeat_ttl(self, job: Job) -> int:
        if runs_in_horse(job):
            return super().get_heartbeat_ttl(job)
        # Nobody renews the heartbeat while this process runs the job: it must last the
        # job's whole timeout.
        return SimpleWorker.get_heartbeat_ttl(self, job)  # type: ignore[arg-type]

    def run_maintenance_tasks(self) -> None:
        """RQ's maintenance (when the worker starts, then every `maintenance_interval`, 10
        minutes), and ours: first bury this host's dead workers, whose jobs RQ's cleaning of
        the registries then fails (or retries); last book the periodic jobs again, which
        revives the self-booking chains (reconcilers, sweeps) that a Redis flush or failover
        ended, or whose run died with a worker."""
        self.bury_dead_workers()
        super().run_maintenance_tasks()
        assert self.flask_app is not None
        with self.flask_app.app_context():
            ensure_scheduled()

    def bury_dead_workers(self) -> list[str]:
        """The workers of these queues that ran on this host and whose process is gone: end
        their registration, and mark the jobs they were running as expired in the started
        registries, where RQ's cleaning finds them (a job run in process would otherwise stay
        "started" for its whole timeout). Their names. Workers of other hosts are left to
        RQ: their registration and their jobs' heartbeats lapse."""
        dead = {
            worker.name: worker
            for watched in self.queues
            for worker in Worker.all(queue=watched)
            if worker.name != self.name
            and worker.hostname == self.hostname
            and worker.pid
            and not process_is_running(worker.pid)
        }
        if not dead:
            return []
        for watched in self.queues:
            registry = StartedJobRegistry(queue=watched)
            for job_id, execution_id in registry.get_job_and_execution_ids(cleanup=False):
                try:
                    execution = Execution.fetch(execution_id, job_id, self.connection)
                except ValueError:
                    continue  # ended meanwhile
                if execution.worker_name in dead:
                    self.connection.zadd(registry.key, {execution.composite_key: 0}, xx=True)
        for worker in dead.values():
            worker.register_death()
        log.warning("dead workers buried", extra={"workers": sorted(dead)})
        return sorted(dead)

    def _start_scheduler(
        self,
        burst: bool = False,
        logging_level: str | None = "INFO",
        date_format: str = DEFAULT_LOGGING_DATE_FORMAT,
        log_format: str = DEFAULT_LOGGING_FORMAT,
    ) -> None:
        """RQ's, but the scheduler process starts whether or not it took the lock: it stands
        by and takes the lock when its holder dies (RQ starts one only with the lock, and
        tries again only at the next maintenance, 10 minutes on)."""
        if burst:
            super()._start_scheduler(burst, logging_level, date_format, log_format)
            return
        self.scheduler = StandbyScheduler(
            self.queues,
            connection=self.connection,
            logging_level=logging_level if logging_level is not None else self.log.level,
            date_format=date_format,
            log_format=log_format,
            serializer=self.serializer,
        )
        self.scheduler.acquire_locks(auto_start=True)

    def stop_scheduler(self) -> None:
        """Stop the scheduler thread (RQ's own stops a process by signal)."""
        if isinstance(self.scheduler, StandbyScheduler):
            self.scheduler.halt()
            return
        super().stop_scheduler()

    def perform_job(self, job: Job, queue: Queue) -> bool:
        assert self.flask_app is not None
        with self.flask_app.app_context():
            return super().perform_job(job, queue)

    def main_work_horse(self, job: Job, queue: Queue) -> None:
        # The child side of the fork only: the limits end with the horse and never reach the
        # worker itself.
        assert self.flask_app is not None
        with self.flask_app.app_context():
            # The worker's own jobs left connections in its pools: the horse must open its
            # own, and leave the parent's sockets alone (close=False).
            for engine in db.engines.values():
                engine.dispose(close=False)
        if job.func_name in JOBS_UNDER_LIMITS:
            limit_work_horse(
                self.flask_app.config["DMS_EXTRACT_MEMORY_MB"],
                self.flask_app.config["DMS_EXTRACT_CPU_SECONDS"],
                documents=max(1, JOBS_UNDER_LIMITS[job.func_name](job.args)),
            )
        if job.func_name in LOW_PRIORITY_JOBS:
            os.nice(LOW_PRIORITY_NICENESS)
        super().main_work_horse(job, queue)


class StandbyScheduler(RQScheduler):
    """RQ's scheduler, run by every worker in a thread of its own: the holder of a queue's
    lock moves its due jobs onto the queue, the others try for the lock every
    SCHEDULER_RETRY_SECONDS. A lock whose holder ran on this host and whose process is gone
    is taken at once."""

    _halt: threading.Event | None = None

    def start(self) -> threading.Thread:  # type: ignore[override]
        """RQ's `work` loop in a daemon thread of this process (RQ forks a process for it);
        `_process` is what RQ's worker checks with `is_alive()`."""
        self._status = self.Status.STARTED
        self._stop_requested = False
        self._halt = threading.Event()
        self._process = threading.Thread(target=self._run, name="rq-scheduler", daemon=True)
        self._process.start()
        return self._process

    def _run(self) -> None:
        self.register_birth()
        assert self._halt is not None
        while not self._stop_requested:
            try:
                if self.should_reacquire_locks:
                    self.acquire_locks()
                self.heartbeat()
                self.enqueue_scheduled_jobs()
            except RedisError as exc:  # Redis away: keep trying, as the worker does
                self.log.warning("scheduler: %s", exc)
            self._halt.wait(self.interval)
        self.stop()

    def halt(self, timeout: float = 10) -> None:
        """End the thread: it releases its locks and its registration on the way out."""
        self._stop_requested = True
        if self._halt is not None:
            self._halt.set()
        thread = self._process
        if isinstance(thread, threading.Thread) and thread.is_alive():
            thread.join(timeout)

    @property
    def should_reacquire_locks(self) -> bool:
        if self._queue_names == self.acquired_locks:
            return False
        if not self.lock_acquisition_time:
            return True
        waited = (datetime.now() - self.lock_acquisition_time).total_seconds()
        return waited > SCHEDULER_RETRY_SECONDS

    def acquire_locks(self, auto_start: bool = False) -> set[str]:
        """RQ's, after releasing the locks of dead holders on this host; with `auto_start`,
        the scheduler process is started (again) even without a lock, to stand by."""
        self.release_dead_holders()
        acquired = super().acquire_locks(auto_start=False)
        if auto_start and (self._process is None or not self._process.is_alive()):
            self.start()
        return acquired

    def release_dead_holders(self) -> None:
        for name in self._queue_names:
            key = self.get_locking_key(name)
            holder = self.connection.get(key)
            if holder is None or holder.decode() == self.name:
                continue
            try:
                other = RQScheduler.fetch(holder.decode(), self.connection)
            except SchedulerNotFound:
                continue  # just acquired, its process not started yet
            if other.hostname == socket.gethostname() and not process_is_running(other.pid):
                release_lock(self.connection, key, other.name)
                self.log.warning("released the scheduler lock of %s: its process is gone", name)


def process_is_running(pid: int) -> bool:
    """Whether process `pid` of this host is running (a zombie, dead but not yet reaped by
    its parent, is not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    try:
        with open(f"/proc/{pid}/stat") as stat:
            # "pid (comm) state ...": comm may hold spaces and parentheses.
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def limit_work_horse(memory_mb: int, cpu_seconds: int, documents: int = 1) -> None:
    """Cap what this process's address space may grow by, and its CPU time (0 leaves either
    unlimited): `cpu_seconds` for each of its `documents` (limits.next_document moves the soft
    limit from one to the next; the hard limit, which only root could raise again, is the
    whole run's). The OCR programs it runs inherit both."""
    if memory_mb > 0:
        # Above the horse's size at the fork, not from zero: the worker's own address space
        # varies with what it loaded and the threads it ever ran (64 MiB malloc arenas each).
        hard = resource.getrlimit(resource.RLIMIT_AS)[1]
        ceiling = _address_space() + memory_mb * MiB
        resource.setrlimit(resource.RLIMIT_AS, (_at_most(ceiling, hard), hard))
        limits.note_memory_ceiling(memory_mb)
    if cpu_seconds > 0:
        hard = _at_most(
            cpu_seconds * documents + CPU_GRACE_SECONDS, resource.getrlimit(resource.RLIMIT_CPU)[1]
        )
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


def periodic_jobs() -> list[Periodic]:
    """Every periodic job the worker keeps booked: what all share (jobs/core.py), then the
    `PERIODIC` list of each capability's jobs/<name>.py, in capabilities.py's order."""
    modules = [core, *(importlib.import_module(f"jobs.{n}") for n in capabilities.having("jobs"))]
    return [periodic for module in modules for periodic in getattr(module, "PERIODIC", ())]


def ensure_scheduled() -> list[str]:
    """Book the next run of every periodic job (a chain only when none is alive:
    queue.book_periodic's `unless_booked`; a daily job under the day's id, which books one
    job however often it is booked). Called when a worker starts and by its maintenance.
    Returns the ids booked; a Redis outage only delays the bookings, never the worker."""
    booked = []
    try:
        for periodic in periodic_jobs():
            job_id = periodic.book(unless_booked=True)
            if job_id is not None:
                booked.append(job_id)
    except RedisError as exc:
        log.warning("could not book the periodic jobs", extra={"error": str(exc)})
    return booked


def run_worker(app: Flask, burst: bool = False) -> None:
    """Work every queue of the app, with the scheduler; book the periodic jobs first."""
    AppWorker.flask_app = app
    with app.app_context():
        worker = AppWorker(
            [queue.queue(n) for n in queue.QUEUE_NAMES], connection=redis_store.client, name=None
        )
        ensure_scheduled()
        worker.work(with_scheduler=True, burst=burst)

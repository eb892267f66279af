"""A job worker killed with its scheduler (`kill -9` of its process group) while a webhook
delivery is in flight, and started again ten seconds later, as a supervisor restarts it: the
new worker takes the scheduler over, the periodic jobs that fell due meanwhile run, the dead
worker leaves RQ's registry, and the delivery is sent again, all within 90 seconds of the
restart. Real processes (`flask worker`) and real time: the test waits for them, about half a
minute when all goes well, up to two minutes when it fails."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from rq import Worker
from rq.job import Job
from rq.registry import FinishedJobRegistry, ScheduledJobRegistry
from rq.scheduler import RQScheduler

from extensions import redis_store
from services.core import queue
from tests.server import BIN, ROOT
from tests.webhooks.receiver import Answer

pytestmark = pytest.mark.slow

RESTART_AFTER = 10  # seconds between the kill and the new worker's start
WITHIN = 90  # seconds from the restart for everything to be back
CHAINS = ("webhooks-reconcile", "push-reconcile", "recover-lost-work", "workflows-sweep")


def _start_worker(app, log: Path) -> subprocess.Popen:
    """`flask worker` on the test's database and Redis prefix, in its own process group (the
    worker and the scheduler process it forks), allowed to deliver to the local receiver."""
    config = app.config
    env = {
        **os.environ,
        "DATABASE_URL": config["SQLALCHEMY_DATABASE_URI"],
        "REDIS_URL": config["REDIS_URL"],
        "DMS_REDIS_PREFIX": config["REDIS_KEY_PREFIX"],
        "SECRET_KEY": config["SECRET_KEY"],
        "DMS_STORAGE_DIR": config["DMS_STORAGE_DIR"],
        "DMS_WEBHOOK_ALLOW_PRIVATE": "1",
        "DMS_WEBHOOK_ALLOW_HTTP": "1",
        "DMS_ENV_FILE": os.devnull,
        "DMS_LOG_JSON": "0",
    }
    with log.open("a") as out:
        return subprocess.Popen(
            [str(BIN / "flask"), "--app", "app", "worker"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def _stop(proc: subprocess.Popen) -> None:
    """TERM (RQ's warm shutdown, which stops its scheduler too), then KILL the group."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    else:
        # The group outlives its leader when the leader died alone: end the rest.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)


def _until(condition, seconds: float, what: str, log: Path) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"{what} (worker log:\n{log.read_text()[-4000:]})"
        time.sleep(0.2)


def _scheduler_lock_held() -> bool:
    return all(
        redis_store.client.exists(RQScheduler.get_locking_key(queue.queue(name).name))
        for name in queue.QUEUE_NAMES
    )


def _registered_workers() -> set[str]:
    return {w.name for name in queue.QUEUE_NAMES for w in Worker.all(queue=queue.queue(name))}


def _make_chains_overdue() -> list[str]:
    """The booked runs of the self-booking chains fall due while no worker runs: their time
    in the scheduled registry moves to now. Their ids."""
    registry = ScheduledJobRegistry(queue=queue.queue())
    overdue = [j for j in registry.get_job_ids() if j.startswith(CHAINS)]
    now = int(time.time())
    redis_store.client.zadd(registry.key, dict.fromkeys(overdue, now), xx=True)
    return overdue


def _each_chain_ran_since(since: datetime) -> bool:
    """Every chain has a run that finished after `since`: the overdue run itself, or the one
    booked in its place when the dead worker was cleaned up (either is the sweep running)."""
    registry = FinishedJobRegistry(queue=queue.queue())
    jobs = Job.fetch_many(registry.get_job_ids(), connection=redis_store.client)
    ran = {
        chain
        for job in jobs
        if job is not None and job.ended_at is not None
        for chain in CHAINS
        if job.id.startswith(f"{chain}-") and job.ended_at.replace(tzinfo=UTC) >= since
    }
    return ran == set(CHAINS)


def test_a_worker_killed_mid_delivery_is_replaced_within_90_seconds(
    app, tenant, receiver, make_endpoint, emit, deliveries_of, tmp_path
):
    in_flight = threading.Event()
    receiver.answer(Answer(200, hold=in_flight))  # the first attempt hangs until the kill
    endpoint_id, _ = make_endpoint(tenant, receiver.url())
    log = tmp_path / "worker.log"
    first = _start_worker(app, log)
    second = None
    try:
        with app.app_context():
            _until(_scheduler_lock_held, 60, "the first worker took no scheduler lock", log)
            emit(tenant)
            assert receiver.arrived.wait(60), log.read_text()[-4000:]
            dead = _registered_workers()
            assert len(dead) == 1

            os.killpg(first.pid, signal.SIGKILL)  # the worker and its scheduler, mid-send
            first.wait()
            overdue = _make_chains_overdue()
            assert all(any(j.startswith(f"{c}-") for j in overdue) for c in CHAINS), overdue
            in_flight.set()
            time.sleep(RESTART_AFTER)

            started_at = datetime.now(UTC) - timedelta(seconds=1)
            second = _start_worker(app, log)
            restarted = time.monotonic()

            def left() -> float:
                return WITHIN - (time.monotonic() - restarted)

            _until(lambda: len(receiver.requests) >= 2, left(), "no second attempt", log)
            _until(lambda: _each_chain_ran_since(started_at), left(), "the sweeps did not run", log)
            _until(lambda: not dead & _registered_workers(), 5, "the dead worker is listed", log)
        _until(
            lambda: deliveries_of(endpoint_id)[0]["status"] == "succeeded",
            left(),
            "no attempt recorded",
            log,
        )
        assert time.monotonic() - restarted < WITHIN
        assert receiver.requests[0].body == receiver.requests[1].body  # the same delivery
    finally:
        in_flight.set()
        _stop(first)
        if second is not None:
            _stop(second)

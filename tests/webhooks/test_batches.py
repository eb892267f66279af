"""The drain job: many commits wake one job, which claims due deliveries a batch at a time and
sends them concurrently. Racing claims and racing drains never take a delivery twice (real
threads, each with its own database connection: SKIP LOCKED on PostgreSQL, one writer at a
time on SQLite); a worker killed mid-batch loses nothing; a long drain hands over."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections import Counter
from datetime import timedelta

from sqlalchemy import select

import clock
from extensions import db
from jobs import webhooks as webhook_jobs
from models import WebhookDelivery
from services.core import queue, transaction
from services.webhooks import batches, deliveries, wakeup
from tests.webhooks.receiver import Answer


def _emit_many(app, tenant, count: int) -> list[str]:
    from services.core import events

    with app.app_context():
        ids = []
        for n in range(count):
            ids.append(events.emit(tenant.id, "document.updated", {"document": {"id": f"d{n}"}}).id)
            transaction.commit()
        return ids


def _rows(app) -> list[WebhookDelivery]:
    with app.app_context():
        rows = list(db.session.scalars(select(WebhookDelivery)))
        db.session.expunge_all()
        return rows


def _queued_job_ids(app) -> list[str]:
    with app.app_context():
        return queue.queue().get_job_ids()


def test_many_commits_wake_one_drain_job(app, receiver, make_endpoint, emit, work, tenant):
    make_endpoint(tenant, receiver.url())
    before = _queued_job_ids(app)
    for _ in range(5):
        emit(tenant)
    woken = [j for j in _queued_job_ids(app) if j not in before]
    assert len(woken) == 1 and woken[0].startswith("webhooks-drain-")
    work()
    assert len(receiver.requests) == 5
    emit(tenant)  # the drain started: the next commit wakes another
    assert len([j for j in _queued_job_ids(app) if j.startswith("webhooks-drain-")]) == 1


def test_racing_batch_claims_never_take_a_delivery_twice(app, make_endpoint, tenant, receiver):
    make_endpoint(tenant, receiver.url())
    make_endpoint(tenant, receiver.url("/second"))
    _emit_many(app, tenant, 60)  # 120 deliveries
    start = threading.Barrier(4)
    claimed: list[list[str]] = []

    def claimer(n: int) -> None:
        mine: list[str] = []
        with app.app_context():
            start.wait(10)
            while True:
                plans, count = transaction.transactional(batches.claim_due)(f"t{n}", 7)
                if not count:
                    break
                mine += [plan.delivery_id for plan in plans]
        claimed.append(mine)

    threads = [threading.Thread(target=claimer, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    every = [delivery_id for mine in claimed for delivery_id in mine]
    assert len(claimed) == 4
    assert len(every) == 120 and len(set(every)) == 120
    assert sum(1 for mine in claimed if mine) >= 2, "the claims did not race"
    assert {row.job_id for row in _rows(app)} <= {"t0", "t1", "t2", "t3"}


def test_racing_drains_send_each_delivery_once(app, monkeypatch, make_endpoint, tenant, receiver):
    monkeypatch.setattr(batches, "BATCH_SIZE", 8)
    make_endpoint(tenant, receiver.url())
    event_ids = _emit_many(app, tenant, 80)
    start = threading.Barrier(3)
    made: list[int] = []

    def drainer() -> None:
        with app.app_context():
            start.wait(10)
            made.append(webhook_jobs.drain())

    threads = [threading.Thread(target=drainer) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    arrivals = Counter(r.headers["webhook-id"] for r in receiver.requests)
    assert sorted(arrivals) == sorted(event_ids)
    assert set(arrivals.values()) == {1}
    assert sum(made) == 80
    rows = _rows(app)
    assert {(r.status, r.attempt_count, r.claimed_until) for r in rows} == {("succeeded", 1, None)}


def test_a_worker_killed_mid_batch_loses_nothing(
    app, receiver, make_endpoint, work, reconcile, tenant
):
    """A real process runs the drain and is killed (SIGKILL) while its batch is in flight."""
    release = threading.Event()
    receiver.default = Answer(200, hold=release)
    make_endpoint(tenant, receiver.url())
    event_ids = _emit_many(app, tenant, 20)  # one batch
    with app.app_context():
        db.engine.dispose()  # nothing pooled may cross the fork
    pid = os.fork()
    if pid == 0:  # the worker: drain, and be killed in the middle
        try:
            with app.app_context():
                webhook_jobs.drain()
        finally:
            os._exit(0)
    try:
        for _ in range(2000):  # until every sending thread holds a request
            if len(receiver.requests) >= batches.SEND_THREADS:
                break
            time.sleep(0.01)
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    in_flight = len(receiver.requests)
    assert in_flight >= 1
    receiver.default = Answer(200)
    release.set()
    rows = _rows(app)
    assert all(r.claimed_until is not None and r.attempt_count == 0 for r in rows)
    assert reconcile() == 0  # claimed: the attempts may still be running
    work()  # the drain woken by the commits finds everything claimed
    assert len(receiver.requests) == in_flight

    clock.shift(deliveries.CLAIM_LEASE + timedelta(seconds=1))
    assert reconcile() == 20
    work()
    assert Counter(r.headers["webhook-id"] for r in receiver.requests[in_flight:]) == Counter(
        event_ids
    )
    rows = _rows(app)
    assert {(r.status, r.attempt_count) for r in rows} == {("succeeded", 1)}


def test_a_long_drain_hands_over_to_a_fresh_job(
    app, monkeypatch, receiver, make_endpoint, work, tenant
):
    monkeypatch.setattr(batches, "BATCH_SIZE", 2)
    monkeypatch.setattr(webhook_jobs, "DRAIN_SECONDS", 0.0)
    make_endpoint(tenant, receiver.url())
    _emit_many(app, tenant, 5)
    with app.app_context():
        queue.queue().empty()  # the job the commits woke: this test runs the drain itself
        assert webhook_jobs.drain() == 2
        assert wakeup.drain_is_waiting()  # the rest is left to a fresh job
    work()
    assert len(receiver.requests) == 5
    assert {(r.status, r.attempt_count) for r in _rows(app)} == {("succeeded", 1)}


def test_a_send_not_started_in_its_window_releases_the_claim(
    app, monkeypatch, receiver, make_endpoint, emit, work, tenant
):
    make_endpoint(tenant, receiver.url())
    emit(tenant)
    window = batches.SEND_WINDOW
    monkeypatch.setattr(batches, "SEND_WINDOW", timedelta(seconds=-1))
    with app.app_context():
        plans, count = transaction.transactional(batches.claim_due)("late")
        assert count == 1
        with batches.Sender() as sender:
            results = list(zip(plans, sender.send_all(plans), strict=True))
        assert results[0][1] is None
        assert transaction.transactional(batches.record)(results) == 0
    [row] = _rows(app)
    assert (row.status, row.attempt_count, row.claimed_until) == ("pending", 0, None)
    assert receiver.requests == []
    monkeypatch.setattr(batches, "SEND_WINDOW", window)
    work()  # the drain the commit woke
    assert len(receiver.requests) == 1


def test_a_batch_records_failures_and_successes_alike(
    app, receiver, make_endpoint, emit, work, tenant
):
    receiver.answer(Answer(500), Answer(500))
    make_endpoint(tenant, receiver.url())
    for _ in range(4):
        emit(tenant)
    work()
    statuses = Counter(r.status for r in _rows(app))
    assert statuses == {"retrying": 2, "succeeded": 2}

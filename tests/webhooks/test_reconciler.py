"""Nothing is lost and nothing is sent twice at once: the reconciler after a flushed Redis or
a worker killed mid-attempt, the claim under concurrency, the minutely schedule, the CLI."""

from __future__ import annotations

import threading
from datetime import timedelta

from rq.job import JobStatus
from rq.registry import ScheduledJobRegistry
from rq.utils import now as rq_now
from sqlalchemy import select, update

import clock
from extensions import db, redis_store
from jobs import webhooks as webhook_jobs
from jobs import worker
from models import WebhookDelivery
from services.core import queue, transaction
from services.webhooks import deliveries
from tests.helpers import forget_jobs
from tests.webhooks.receiver import Answer


def _delivery_id(app, endpoint_id: str) -> str:
    with app.app_context():
        return db.session.scalar(
            select(WebhookDelivery.id).where(WebhookDelivery.endpoint_id == endpoint_id)
        )


def _flush_redis() -> None:
    """Everything Redis holds for this test run: our prefixed keys, RQ's keys naming our
    queues, and the jobs themselves (FLUSHDB would also hit other runs sharing the server)."""
    client = redis_store.client
    job_ids = [j for j in db.session.scalars(select(WebhookDelivery.job_id)) if j]
    names = [*client.scan_iter(match=f"*{redis_store.key('')}*", count=1000)]
    names += [f"rq:job:{job_id}" for job_id in job_ids]
    if names:
        client.delete(*names)


def test_redis_flushed_before_the_worker_ran(
    app, receiver, make_endpoint, emit, work, reconcile, tenant, deliveries_of
):
    endpoint_id, _ = make_endpoint(tenant, receiver.url())
    emit(tenant)
    with app.app_context():
        _flush_redis()
    work()
    assert receiver.requests == []
    assert reconcile() == 1
    assert reconcile() == 0  # its job is queued now: alive
    work()
    assert len(receiver.requests) == 1
    assert deliveries_of(endpoint_id)[0]["status"] == "succeeded"


def test_redis_down_at_commit_loses_nothing(
    app, monkeypatch, receiver, make_endpoint, emit, work, reconcile, tenant
):
    from redis.exceptions import ConnectionError as RedisConnectionError

    make_endpoint(tenant, receiver.url())

    def refuse(*args, **kwargs):
        raise RedisConnectionError("Redis is down")

    with monkeypatch.context() as patch:
        patch.setattr(queue, "enqueue", refuse)
        emit(tenant)  # committed; the enqueue after the commit fails quietly
    work()
    assert receiver.requests == []
    assert reconcile() == 1
    work()
    assert len(receiver.requests) == 1


def test_a_worker_killed_mid_attempt(
    app, receiver, make_endpoint, emit, work, reconcile, tenant, deliveries_of
):
    endpoint_id, _ = make_endpoint(tenant, receiver.url())
    emit(tenant)
    delivery_id = _delivery_id(app, endpoint_id)
    with app.app_context():
        queue.queue().empty()  # the dead worker had taken the job
        assert transaction.transactional(deliveries.claim)(delivery_id) is not None
    assert reconcile() == 0  # claimed: an attempt may still be running
    clock.shift(deliveries.CLAIM_LEASE + timedelta(seconds=1))
    assert reconcile() == 1
    work()
    assert len(receiver.requests) == 1
    [delivery] = deliveries_of(endpoint_id)
    assert delivery["status"] == "succeeded" and delivery["attemptCount"] == 1


def _job(status: JobStatus) -> str:
    """A drain job in RQ, in `status` (a dead worker's job is failed by the worker that buries
    it: jobs/worker.AppWorker.bury_dead_workers)."""
    job = queue.queue().create_job("jobs.webhooks.drain")
    job.set_status(status, pipeline=None)
    job.last_heartbeat = rq_now()
    job.save()
    return job.id


def test_a_claim_whose_job_died_is_released_at_once(
    app, receiver, make_endpoint, emit, work, reconcile, tenant, deliveries_of
):
    endpoint_id, _ = make_endpoint(tenant, receiver.url())
    emit(tenant)
    delivery_id = _delivery_id(app, endpoint_id)
    with app.app_context():
        queue.queue().empty()  # the dead worker had taken the job
        running, failed = _job(JobStatus.STARTED), _job(JobStatus.FAILED)
        assert transaction.transactional(deliveries.claim)(delivery_id, running) is not None
    assert reconcile() == 0  # its job is running: the attempt may still end
    with app.app_context():
        db.session.execute(
            update(WebhookDelivery).where(WebhookDelivery.id == delivery_id).values(job_id=failed)
        )
        transaction.commit()
    assert reconcile() == 1  # well inside the claim's lease
    work()
    assert len(receiver.requests) == 1
    [delivery] = deliveries_of(endpoint_id)
    assert delivery["status"] == "succeeded" and delivery["attemptCount"] == 1


def test_no_second_attempt_while_one_is_in_flight(
    app, receiver, make_endpoint, emit, work, reconcile, tenant, deliveries_of
):
    release = threading.Event()
    receiver.answer(Answer(200, hold=release))
    endpoint_id, _ = make_endpoint(tenant, receiver.url())
    emit(tenant)
    delivery_id = _delivery_id(app, endpoint_id)
    outcomes: list = []

    def slow_attempt() -> None:
        with app.app_context():
            outcomes.append(webhook_jobs.deliver(delivery_id))

    first = threading.Thread(target=slow_attempt)
    first.start()
    try:
        assert receiver.arrived.wait(10)
        with app.app_context():
            assert webhook_jobs.deliver(delivery_id) is None  # a duplicate job
        assert reconcile() == 0
        work()  # the job enqueued at commit finds the delivery claimed
    finally:
        release.set()
        first.join(15)
    assert outcomes == ["succeeded"]
    assert len(receiver.requests) == 1
    assert deliveries_of(endpoint_id)[0]["attemptCount"] == 1


def test_concurrent_claims_let_exactly_one_through(app, make_endpoint, emit, tenant, receiver):
    endpoint_id, _ = make_endpoint(tenant, receiver.url())
    emit(tenant)
    delivery_id = _delivery_id(app, endpoint_id)
    start = threading.Barrier(4)
    plans: list = []

    def claim() -> None:
        with app.app_context():
            start.wait(5)
            plans.append(transaction.transactional(deliveries.claim)(delivery_id))

    threads = [threading.Thread(target=claim) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(15)
    assert len(plans) == 4
    assert len([p for p in plans if p is not None]) == 1


def test_the_reconciler_runs_every_minute_beside_the_sweeps(app):
    with app.app_context():
        forget_jobs()  # earlier tests' runs would count as a living chain
        worker.ensure_scheduled()
        scheduled = ScheduledJobRegistry(queue=queue.queue()).get_job_ids()
        assert any(job_id.startswith("webhooks-reconcile-") for job_id in scheduled)
        assert webhook_jobs.reconcile() == 0  # and books its next run
        assert (
            len(
                [
                    j
                    for j in ScheduledJobRegistry(queue=queue.queue()).get_job_ids()
                    if j.startswith("webhooks-reconcile-")
                ]
            )
            >= 1
        )


def test_flask_webhooks_reconcile(app, receiver, make_endpoint, emit, tenant):
    make_endpoint(tenant, receiver.url())
    emit(tenant)
    with app.app_context():
        _flush_redis()
    runner = app.test_cli_runner()
    result = runner.invoke(args=["webhooks", "reconcile", "--inline"])
    assert result.exit_code == 0, result.output
    assert "1 attempted, 1 succeeded" in result.output
    assert len(receiver.requests) == 1
    result = runner.invoke(args=["webhooks", "reconcile"])
    assert result.output.strip() == "0 enqueued"

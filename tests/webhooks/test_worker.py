"""The production worker (`flask worker`, jobs/worker.py) runs webhook jobs in its own process
(warm: no fork, no recompiled statements) and the extraction jobs in a forked work horse under
the memory and CPU limits, which never reach the worker itself."""

from __future__ import annotations

import os
import resource

from rq.job import Job
from sqlalchemy import select

from extensions import db, redis_store
from jobs import worker as worker_module
from jobs.worker import run_worker
from models import Document
from services.core import queue


def _run_production_worker(app) -> None:
    with app.app_context():
        db.engine.dispose()  # nothing pooled by the test may cross a fork
    run_worker(app, burst=True)


def _result(app, job_id: str):
    with app.app_context():
        return Job.fetch(job_id, connection=redis_store.client).return_value(refresh=True)


def test_jobs_run_in_process_and_jobs_under_limits_in_a_limited_horse(make_app, monkeypatch):
    limited = make_app(DMS_EXTRACT_CPU_SECONDS=7)
    # Probes enqueued by dotted name, as services enqueue; five are treated as jobs under
    # limits, each working one document (posix.getpid is os.getpid under another name), and
    # one of them (os.nice, which answers the niceness) as a low-priority job, as OCR is.
    under_limits = dict.fromkeys(
        ["resource.getrlimit", "posix.getpid", "os.getppid", "os.nice", "posix.getpriority"],
        lambda args: 1,
    )
    monkeypatch.setattr(worker_module, "JOBS_UNDER_LIMITS", under_limits)
    monkeypatch.setattr(worker_module, "LOW_PRIORITY_JOBS", frozenset({"os.nice"}))
    with limited.app_context():
        worker_pid = queue.enqueue("os.getpid").id
        horse_pid = queue.enqueue("posix.getpid").id
        horse_parent = queue.enqueue("os.getppid").id
        horse_cpu = queue.enqueue("resource.getrlimit", resource.RLIMIT_CPU).id
        low_priority = queue.enqueue("os.nice", 0).id
        horse_priority = queue.enqueue("posix.getpriority", os.PRIO_PROCESS, 0).id
    before = resource.getrlimit(resource.RLIMIT_CPU)
    niceness = os.nice(0)

    _run_production_worker(limited)

    assert _result(limited, worker_pid) == os.getpid()
    assert _result(limited, horse_pid) != os.getpid()
    assert _result(limited, horse_parent) == os.getpid()
    assert _result(limited, horse_cpu)[0] == 7  # the CPU budget, set in the horse
    assert _result(limited, low_priority) == niceness + worker_module.LOW_PRIORITY_NICENESS
    assert _result(limited, horse_priority) == niceness  # other horses keep the worker's
    assert os.nice(0) == niceness, "the niceness stays in the horse"
    assert resource.getrlimit(resource.RLIMIT_CPU) == before, "the limits stay in the horse"


def test_webhooks_and_then_an_extraction_through_the_production_worker(
    app, receiver, make_endpoint, emit, tenant, deliveries_of
):
    """The drain runs in process first (its connection stays pooled in the worker), then the
    extraction's horse is forked: it must open its own database connections."""
    from tests.support import stored_document

    endpoint_id, _ = make_endpoint(tenant, receiver.url())
    for _ in range(3):
        emit(tenant)
    document_id = stored_document(app, tenant.id, b"text after the webhooks", "after.txt")

    _run_production_worker(app)

    delivered = deliveries_of(endpoint_id)
    assert len(delivered) == 4  # the three events and the document's own
    assert len(receiver.requests) == 4
    assert {d["status"] for d in delivered} == {"succeeded"}
    with app.app_context():
        status = db.session.scalar(select(Document.text_status).where(Document.id == document_id))
    assert status == "done"
    with app.app_context():  # and the worker's own connections still work
        assert db.session.scalar(select(Document.id).where(Document.id == document_id))

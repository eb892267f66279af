"""Recovery without hands: pending text extraction whose job is gone is enqueued again by the
scheduled recovery job (jobs/search.recover_lost_work), never doubled while it lives."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from rq.job import Job, JobStatus

import clock
from extensions import db, redis_store
from models import Document, DocumentText
from tests.support import stored_document


def _text(app, document_id: str) -> tuple[str, DocumentText]:
    with app.app_context():
        document = db.session.get(Document, document_id)
        return document.text_status, db.session.get(DocumentText, document_id)


def _recover(app) -> int:
    from jobs.search import recover_lost_work

    with app.app_context():
        return recover_lost_work()["extractions"]


def test_an_upload_made_while_redis_was_down_is_recovered(app, make_app, tenant, work):
    offline = make_app(REDIS_URL="redis://127.0.0.1:1/0")
    document_id = stored_document(offline, tenant.id, b"stored while redis slept", "r.txt")
    assert _text(app, document_id)[1].job_id is None

    assert _recover(app) == 0  # too fresh: its own job may still be on the way
    clock.shift(timedelta(minutes=11))
    assert _recover(app) == 1
    work()
    status, row = _text(app, document_id)
    assert status == "done" and row.text == "stored while redis slept"


def test_a_job_lost_with_redis_is_enqueued_again(app, tenant, store_document, work):
    document_id = store_document(tenant, b"its job vanished", "v.txt")
    with app.app_context():
        Job.fetch(_text(app, document_id)[1].job_id, connection=redis_store.client).delete()
    clock.shift(timedelta(minutes=11))

    assert _recover(app) == 1
    work()
    assert _text(app, document_id)[0] == "done"


def test_a_job_whose_worker_died_mid_way_is_enqueued_again(app, tenant, store_document, work):
    document_id = store_document(tenant, b"the worker was killed", "k.txt")
    with app.app_context():
        job = Job.fetch(_text(app, document_id)[1].job_id, connection=redis_store.client)
        job.set_status(JobStatus.STARTED)
        job.heartbeat(datetime.now(UTC) - timedelta(minutes=20), ttl=3600)
    clock.shift(timedelta(minutes=11))

    assert _recover(app) == 1
    work()
    assert _text(app, document_id)[0] == "done"


def test_a_job_still_waiting_is_not_doubled(app, tenant, store_document):
    from services.core import queue

    store_document(tenant, b"queued behind a long backlog", "q.txt")
    clock.shift(timedelta(minutes=11))

    assert _recover(app) == 0
    with app.app_context():  # the upload's thumbnail job waits beside it
        names = [job.func_name for job in queue.queue().jobs]
    assert names.count("jobs.search.extract_documents") == 1


def test_the_recovery_job_books_its_next_run(app):
    from services.core import queue

    with app.app_context():
        from jobs.search import recover_lost_work

        recover_lost_work()
        scheduled = queue.queue().scheduled_job_registry.get_job_ids()
    assert any(job_id.startswith("recover-lost-work-") for job_id in scheduled)

"""An extraction job works a batch of one tenant's documents in one forked work horse, each
document under its own CPU budget: a document that hits a limit fails alone and the ones after
it go to a fresh process; one whose earlier attempt killed the process is tried alone, and
given up after MAX_ATTEMPTS. Through the real forking worker (`flask worker`)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from rq.job import Job

import clock
from extensions import db, redis_store
from models import DocumentText
from services.core import queue
from services.search import extraction_runs
from tests.fixture_files import docx_bomb
from tests.search.test_extraction_limits import outcome, run_forking_worker
from tests.support import stored_document


def _batch(app, tenant_id: str, document_ids: list[str]) -> None:
    with app.app_context():
        assert extraction_runs.enqueue_extractions([(tenant_id, i, 1) for i in document_ids])


def test_a_batch_is_one_horse_and_a_document_over_its_budget_fails_alone(make_app, tenant):
    limited = make_app(DMS_EXTRACT_CPU_SECONDS=1)
    first = stored_document(limited, tenant.id, b"first words", "a.txt", schedule=False)
    # Streaming a million paragraphs takes about 3 s of CPU: over its own budget of 1 s.
    slow = stored_document(limited, tenant.id, docx_bomb(1_000_000), "slow.docx", schedule=False)
    last = stored_document(limited, tenant.id, b"last words", "c.txt", schedule=False)
    _batch(limited, tenant.id, [first, slow, last])

    run_forking_worker(limited)

    assert outcome(limited, first)[0].text_status == "done"
    document, row = outcome(limited, slow)
    assert (document.text_status, document.text_error) == (
        "failed",
        "limit_exceeded: CPU budget of 1 s",
    )
    assert row.attempts == 1
    # The document after the one that hit the limit went to a fresh process, and was read.
    assert outcome(limited, last)[0].text_status == "done"
    assert outcome(limited, last)[1].attempts == 1


def test_documents_share_one_job_within_the_batch_size(app, tenant, work):
    ids = [
        stored_document(app, tenant.id, f"words {n}".encode(), f"{n}.txt", schedule=False)
        for n in range(extraction_runs.EXTRACTION_BATCH + 2)
    ]
    with app.app_context():
        assert extraction_runs.enqueue_extractions([(tenant.id, i, 1) for i in ids])
        jobs = [j for j in queue.queue().jobs if j.func_name == extraction_runs.EXTRACTION_JOB]
    assert [len(j.args[1]) for j in jobs] == [extraction_runs.EXTRACTION_BATCH, 2]

    work()

    assert {outcome(app, i)[0].text_status for i in ids} == {"done"}


@pytest.mark.parametrize(
    ("deaths", "status"), [(1, "done"), (extraction_runs.MAX_ATTEMPTS, "failed")]
)
def test_a_document_whose_attempt_killed_the_process_is_tried_alone(app, tenant, deaths, status):
    suspect = stored_document(app, tenant.id, b"suspect words", "s.txt", schedule=False)
    other = stored_document(app, tenant.id, b"other words", "o.txt", schedule=False)
    with app.app_context():  # attempts that began and never finished: the horse died
        row = db.session.get(DocumentText, suspect)
        row.attempts, row.started_at = deaths, clock.now() - timedelta(minutes=5)
        row.finished_at = None
        db.session.commit()
    _batch(app, tenant.id, [suspect, other])

    run_forking_worker(app)

    assert outcome(app, other)[0].text_status == "done"
    document, row = outcome(app, suspect)
    assert document.text_status == status, row.error
    if status == "failed":
        assert document.text_error == (
            f"gave up after {extraction_runs.MAX_ATTEMPTS} attempts stopped the worker"
        )
    with app.app_context():  # the suspect ran in a job of its own, after the batch's
        runs = [
            [i[0] for i in Job.fetch(r.job_id, connection=redis_store.client).args[1]]
            for r in [db.session.get(DocumentText, suspect)]
        ]
    assert runs == [[suspect]]


def test_single_uploads_waiting_in_the_queue_share_the_job_a_worker_takes(
    app, tenant, other_tenant
):
    from jobs.worker import BATCH_JOBS

    size = BATCH_JOBS[extraction_runs.EXTRACTION_JOB]
    # Uploads one by one, each enqueueing its own job: more than a batch of this tenant, and
    # one of another tenant's in between, which no batch of this tenant's may take.
    ours = [
        stored_document(app, tenant.id, f"words {n}".encode(), f"{n}.txt") for n in range(size + 2)
    ]
    theirs = stored_document(app, other_tenant.id, b"their words", "theirs.txt")
    with app.app_context():
        own_jobs = [db.session.get(DocumentText, i).job_id for i in [*ours, theirs]]

    run_forking_worker(app)

    with app.app_context():
        rows = [db.session.get(DocumentText, i) for i in [*ours, theirs]]
        assert {r.document_id: (r.attempts, r.error) for r in rows} == dict.fromkeys(
            [*ours, theirs], (1, None)
        )
        assert {o.text_status for o in [outcome(app, i)[0] for i in [*ours, theirs]]} == {"done"}
        survivors = [j for j in own_jobs if Job.exists(j, connection=redis_store.client)]
        batches = [Job.fetch(j, connection=redis_store.client).args for j in survivors]
    # The first upload's job took the next `size - 1` of the tenant's; the one after them
    # took the rest; the other tenant's ran alone.
    assert [(args[0], [item[0] for item in args[1]]) for args in batches] == [
        (tenant.id, ours[:size]),
        (tenant.id, ours[size:]),
        (other_tenant.id, [theirs]),
    ]


def test_absorbing_that_fails_leaves_the_job_as_it_was_and_puts_the_others_back(
    app, tenant, monkeypatch
):
    from redis.exceptions import RedisError

    ids = [stored_document(app, tenant.id, f"words {n}".encode(), f"{n}.txt") for n in range(3)]
    with app.app_context():
        waiting = queue.queue()
        taken = Job.fetch(
            db.session.get(DocumentText, ids[0]).job_id, connection=redis_store.client
        )
        waiting.remove(taken.id)  # as a worker's dequeue takes it

        def lost(*args, **kwargs):
            raise RedisError("connection lost")

        monkeypatch.setattr(Job, "delete", lost)  # in the transaction that saves the merge
        size = extraction_runs.EXTRACTION_BATCH
        assert queue.absorb_waiting(taken, waiting, size) == 0
        assert [item[0] for item in taken.args[1]] == [ids[0]]
        assert [item[0] for item in Job.fetch(taken.id, connection=redis_store.client).args[1]] == [
            ids[0]
        ]
        back = [j for j in waiting.jobs if j.func_name == extraction_runs.EXTRACTION_JOB]
        assert sorted(j.args[1][0][0] for j in back) == sorted(ids[1:])

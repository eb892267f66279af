"""The bulk job's run: batches that show progress while it runs, a re-run after a crash that
continues after the last committed batch without editing a document twice, the sweep that
hands a lost job to a worker again, custom field values and workflows started once."""

from __future__ import annotations

from datetime import timedelta

import pytest

from services.bulk import bulk as bulk_service
from services.bulk import recovery
from services.core import transaction
from tests.helpers import forget_jobs

EDITED = "document.bulk_edited"


def _job(response, status=202) -> dict:
    assert response.status_code == status, response.get_json()
    return response.get_json()["data"]


@pytest.fixture
def small_batches(monkeypatch):
    monkeypatch.setattr(bulk_service, "BATCH_SIZE", 2)


def test_progress_shows_after_each_batch_and_a_rerun_continues_after_a_crash(
    app, tenant, make_documents, bulk, job_of, work, recorded, small_batches
):
    ids = make_documents(tenant, 5)
    job = _job(bulk({"documentIds": ids, "operations": [{"op": "addTags", "tags": ["x"]}]}))
    with app.app_context():
        # A worker that takes the job, commits one batch and dies.
        transaction.transactional(bulk_service.begin)(tenant.id, job["id"])
        assert transaction.transactional(bulk_service.run_batch)(tenant.id, job["id"])

    running = _job(job_of(job["id"]), 200)
    assert (running["status"], running["total"], running["done"]) == ("running", 5, 2)

    work()  # the job, still on the queue, runs again from the start

    done = _job(job_of(job["id"]), 200)
    assert (done["status"], done["done"], done["failed"]) == ("succeeded", 5, 0)
    assert recorded.documents(ids) == {i: (["x"], "active") for i in ids}
    assert [t for t, _, _ in recorded.audit(tenant.id, EDITED)] == ids
    assert [d for t, d in recorded.events(tenant.id) if t == "document.updated"] == ids


def test_a_lost_job_is_handed_to_a_worker_again_by_the_sweep(
    app, tenant, make_documents, bulk, job_of, work
):
    ids = make_documents(tenant, 2)
    job = _job(bulk({"documentIds": ids, "operations": [{"op": "trash"}]}))
    with app.app_context():
        forget_jobs()  # Redis lost it
        assert transaction.transactional(recovery.revive_lost)() == []  # too young to tell
        later = bulk_service.clock.now() + timedelta(minutes=2)
        assert transaction.transactional(recovery.revive_lost)(later) == [job["id"]]
        assert transaction.transactional(recovery.revive_lost)(later) == []  # queued now
    work()
    assert _job(job_of(job["id"]), 200)["status"] == "succeeded"
    with app.app_context():
        later = bulk_service.clock.now() + timedelta(minutes=2)
        assert transaction.transactional(recovery.revive_lost)(later) == []  # finished


def test_custom_field_values_are_checked_at_request_time_and_set(
    app, client, headers, tenant, make_documents, bulk, job_of, work
):
    response = client.post(
        "/api/v1/custom-fields", json={"name": "Amount", "dataType": "integer"}, headers=headers
    )
    field = response.get_json()["data"]["id"]
    ids = make_documents(tenant, 2)
    wrong = bulk(
        {
            "documentIds": ids,
            "operations": [{"op": "setCustomFields", "customFields": {field: "x"}}],
        }
    )
    assert wrong.status_code == 422
    assert wrong.get_json()["errors"][0]["field"] == f"operations.0.customFields.{field}"

    job = _job(
        bulk(
            {
                "documentIds": ids,
                "operations": [{"op": "setCustomFields", "customFields": {field: 7}}],
            }
        )
    )
    work()
    assert _job(job_of(job["id"]), 200)["status"] == "succeeded"
    for document_id in ids:
        shown = client.get(f"/api/v1/documents/{document_id}", headers=headers).get_json()["data"]
        assert [(v["fieldId"], v["value"]) for v in shown["customFields"]] == [(field, 7)]


def test_a_workflow_is_started_once_per_document(
    client, headers, tenant, member, make_documents, bulk, job_of, work, recorded
):
    response = client.post(
        "/api/v1/workflows",
        json={"name": "Check", "steps": [{"name": "A", "approvers": [{"user": member.id}]}]},
        headers=headers,
    )
    definition = response.get_json()["data"]["id"]
    ids = make_documents(tenant, 2)
    start = {
        "documentIds": ids,
        "operations": [{"op": "startWorkflow", "definitionId": definition}],
    }
    first = _job(bulk(start))
    work()
    second = _job(bulk(start))
    work()
    assert _job(job_of(first["id"]), 200)["status"] == "succeeded"
    assert _job(job_of(second["id"]), 200)["status"] == "succeeded"
    created = [t for t, _ in recorded.events(tenant.id) if t == "workflow.instance.created"]
    assert len(created) == 2
    assert [t for t, _, _ in recorded.audit(tenant.id, EDITED)] == ids


def test_a_batch_that_dies_half_way_leaves_none_of_its_documents_changed(
    app, tenant, make_documents, bulk, job_of, recorded
):
    """Each document's savepoint sits inside the batch's transaction: on SQLite a savepoint
    opened before the transaction's first write would begin it, and its release commit it."""
    from services.core import signals

    ids = make_documents(tenant, 3)
    job = _job(bulk({"documentIds": ids, "operations": [{"op": "addTags", "tags": ["x"]}]}))
    changed: list[str] = []

    def die_on_the_third(document, **_):
        changed.append(document.id)
        if len(changed) == 3:
            raise RuntimeError("the worker dies")

    signals.document_fields_changed.connect(die_on_the_third)
    try:
        with app.app_context():
            transaction.transactional(bulk_service.begin)(tenant.id, job["id"])
            with pytest.raises(RuntimeError):
                transaction.transactional(bulk_service.run_batch)(tenant.id, job["id"])
    finally:
        signals.document_fields_changed.disconnect(die_on_the_third)

    assert recorded.documents(ids) == {i: ([], "active") for i in ids}
    assert recorded.audit(tenant.id, EDITED) == []
    assert _job(job_of(job["id"]), 200)["done"] == 0


def _statements_of_one_batch(app, tenant_id: str, job_id: str) -> int:
    """The SQL statements the job's one batch sends, read from the engine."""
    from sqlalchemy import event

    from extensions import db

    sent: list[str] = []
    with app.app_context():
        transaction.transactional(bulk_service.begin)(tenant_id, job_id)

        def count(conn, cursor, statement, *_):
            sent.append(statement)

        event.listen(db.engine, "before_cursor_execute", count)
        try:
            transaction.transactional(bulk_service.run_batch)(tenant_id, job_id)
        finally:
            event.remove(db.engine, "before_cursor_execute", count)
    return len(sent)


def test_a_batch_writes_its_documents_together_not_one_at_a_time(
    app, tenant, make_documents, bulk, recorded, client, headers
):
    """A tag change is a handful of statements per batch (the documents, their tags, events
    and audit entries, the index), whatever the batch's size: each would otherwise cost a
    round trip per document."""
    small, large = make_documents(tenant, 3), make_documents(tenant, 30)
    sent = {}
    for ids in (small, large):
        operations = [{"op": "addTags", "tags": ["batched"]}]
        job = _job(bulk({"documentIds": ids, "operations": operations}))
        sent[len(ids)] = _statements_of_one_batch(app, tenant.id, job["id"])
    assert sent[30] - sent[3] < 10, sent  # well under one statement per extra document
    assert recorded.documents(large) == {i: (["batched"], "active") for i in large}
    assert [d for t, d in recorded.events(tenant.id) if t == "document.updated"] == small + large
    assert [t for t, _, _ in recorded.audit(tenant.id, EDITED)] == small + large
    found = client.get("/api/v1/search?q=batched&limit=50", headers=headers).get_json()
    assert sorted(h["document"]["id"] for h in found["data"]) == sorted(small + large)

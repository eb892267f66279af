"""Bulk edits through the API (CONTRACT §10): 202 with a job, its progress and per-document
errors, tags, metadata, trash and restore, one event and one audit entry per changed document
in the requester's name, another tenant's documents, filters and jobs, the request's checks,
scopes and Idempotency-Key."""

from __future__ import annotations

from tests.helpers import auth_headers

EDITED = "document.bulk_edited"


def _job(response, status=202) -> dict:
    assert response.status_code == status, response.get_json()
    return response.get_json()["data"]


def _errors(response, status=422) -> list[tuple[str, str]]:
    assert response.status_code == status, response.get_json()
    return [(e["code"], e.get("field")) for e in response.get_json()["errors"]]


def test_tags_are_added_to_each_document_with_its_event_and_audit_entry(
    tenant, api_key, make_documents, bulk, job_of, work, recorded
):
    ids = make_documents(tenant, 3, tags=["inbox"])
    response = bulk(
        {"documentIds": ids, "operations": [{"op": "addTags", "tags": ["paid", "inbox"]}]}
    )
    job = _job(response)
    assert job["id"].startswith("job_") and job["type"] == "documents.bulk"
    assert job["status"] == "queued" and job["total"] == 0 and job["finishedAt"] is None
    assert response.headers["Location"] == f"/api/v1/jobs/{job['id']}"

    work()

    done = _job(job_of(job["id"]), 200)
    assert (done["status"], done["total"], done["done"], done["failed"]) == ("succeeded", 3, 3, 0)
    assert done["errors"] == [] and done["finishedAt"] is not None
    assert recorded.documents(ids) == {i: (["inbox", "paid"], "active") for i in ids}
    assert [e for e in recorded.events(tenant.id) if e[0] == "document.updated"] == [
        ("document.updated", i) for i in ids
    ]
    assert recorded.audit(tenant.id, EDITED) == [(i, api_key[0].id, job["id"]) for i in ids]


def test_a_document_another_tenant_owns_is_its_not_found_and_is_never_touched(
    tenant, other_tenant, make_documents, bulk, job_of, work, recorded
):
    mine = make_documents(tenant, 2)
    theirs = make_documents(other_tenant, 1, tags=["theirs"])
    job = _job(bulk({"documentIds": [mine[0], *theirs, mine[1]], "operations": [{"op": "trash"}]}))
    work()

    done = _job(job_of(job["id"]), 200)
    assert (done["status"], done["total"], done["done"], done["failed"]) == (
        "partially_failed", 3, 3, 1,
    )  # fmt: skip
    assert done["errors"] == [
        {"documentId": theirs[0], "code": "NOT_FOUND", "message": "Document not found."}
    ]
    assert recorded.documents(theirs) == {theirs[0]: (["theirs"], "active")}
    assert recorded.events(other_tenant.id) == [("document.created", theirs[0])]
    assert {d: s for d, (_, s) in recorded.documents(mine).items()} == dict.fromkeys(
        mine, "deleted"
    )


def test_a_filter_selects_only_the_requesting_tenants_documents(
    tenant, other_tenant, make_documents, bulk, job_of, work, recorded
):
    chosen = make_documents(tenant, 2, tags=["q3"])
    left = make_documents(tenant, 1, tags=["q4"])
    theirs = make_documents(other_tenant, 2, tags=["q3"])
    job = _job(
        bulk(
            {
                "filter": {"tag": "q3"},
                "operations": [
                    {"op": "removeTags", "tags": ["q3"]},
                    {"op": "addTags", "tags": ["done"]},
                ],
            }
        )
    )
    work()

    done = _job(job_of(job["id"]), 200)
    assert (done["status"], done["total"], done["failed"]) == ("succeeded", 2, 0)
    assert recorded.documents(chosen) == {i: (["done"], "active") for i in chosen}
    assert recorded.documents(left + theirs) == {
        left[0]: (["q4"], "active"),
        **{i: (["q3"], "active") for i in theirs},
    }


def test_another_tenants_job_answers_404(
    tenant, other_tenant, create_key, make_documents, bulk, job_of
):
    job = _job(bulk({"documentIds": make_documents(tenant, 1), "operations": [{"op": "trash"}]}))
    theirs = auth_headers(create_key(other_tenant)[1], other_tenant.id)
    assert _errors(job_of(job["id"], theirs), 404) == [("NOT_FOUND", None)]
    assert _errors(job_of("job_nothing"), 404) == [("NOT_FOUND", None)]


def test_metadata_merges_and_a_trashed_document_refuses_changes_without_restore(
    tenant, make_documents, bulk, job_of, work, recorded, app
):
    active, trashed = make_documents(tenant, 2, meta={"dept": "sales", "old": "x"})
    _job(bulk({"documentIds": [trashed], "operations": [{"op": "trash"}]}))
    work()
    job = _job(
        bulk(
            {
                "documentIds": [active, trashed],
                "operations": [{"op": "setMetadata", "metadata": {"dept": "ops", "old": None}}],
            }
        )
    )
    work()
    done = _job(job_of(job["id"]), 200)
    assert done["status"] == "partially_failed"
    assert [(e["documentId"], e["code"]) for e in done["errors"]] == [(trashed, "CONFLICT")]

    restored = _job(
        bulk(
            {
                "documentIds": [trashed],
                "operations": [
                    {"op": "setMetadata", "metadata": {"dept": "ops"}},
                    {"op": "restore"},
                ],
            }
        )
    )
    work()
    assert _job(job_of(restored["id"]), 200)["status"] == "succeeded"
    from extensions import db
    from models import Document

    with app.app_context():
        metas = {i: db.session.get(Document, i).meta for i in (active, trashed)}
    assert metas == {active: {"dept": "ops"}, trashed: {"dept": "ops", "old": "x"}}
    assert recorded.documents([trashed]) == {trashed: ([], "active")}


def test_a_job_that_changes_nothing_emits_and_audits_nothing(
    tenant, make_documents, bulk, job_of, work, recorded
):
    ids = make_documents(tenant, 2, tags=["a"])
    before = recorded.events(tenant.id)
    job = _job(bulk({"documentIds": ids, "operations": [{"op": "addTags", "tags": ["a"]}]}))
    work()
    assert _job(job_of(job["id"]), 200)["status"] == "succeeded"
    assert recorded.events(tenant.id) == before
    assert recorded.audit(tenant.id, EDITED) == []


def test_the_request_is_checked_before_a_job_is_made(bulk, make_documents, tenant):
    ids = make_documents(tenant, 1)
    tags = {"op": "addTags", "tags": ["x"]}
    assert _errors(bulk({"operations": [tags]})) == [("VALIDATION_ERROR", None)]
    assert _errors(bulk({"documentIds": ids, "filter": {}, "operations": [tags]})) == [
        ("VALIDATION_ERROR", None)
    ]
    assert _errors(bulk({"documentIds": ids, "operations": [tags] * 11})) == [
        ("VALIDATION_ERROR", "operations")
    ]
    assert _errors(bulk({"documentIds": ids, "operations": []})) == [
        ("VALIDATION_ERROR", "operations")
    ]
    assert _errors(bulk({"documentIds": ids, "operations": [{"op": "explode"}]})) == [
        ("VALIDATION_ERROR", "operations.0")
    ]
    wrong = [
        ({"tag": ["t"] * 11}, "filter.tag"),
        ({"status": "lost"}, "filter.status.0"),
        ({"createdAfter": "yesterday"}, "filter.createdAfter"),
        ({"bogus": "1"}, "filter.bogus"),
        ({"limit": 5}, "filter"),
        # A view's filters are not applied in a bulk edit: refused, never "every document".
        ({"savedView": "svw_01jf3x9k2m4n5p6q7r8s9t0v1w"}, "filter"),
        ({"customFieldQuery": '["nope", "exact", 1]'}, "filter.customFieldQuery"),
        ({"customFieldQuery": "[" * 5000}, "filter.customFieldQuery"),
    ]
    for given, field in wrong:
        errors = _errors(bulk({"filter": given, "operations": [tags]}))
        assert errors[0] == ("VALIDATION_ERROR", field), given
    start = {"op": "startWorkflow", "definitionId": "wfd_none"}
    assert _errors(bulk({"documentIds": ids, "operations": [tags, start]})) == [
        ("VALIDATION_ERROR", "operations.1.definitionId")
    ]


def test_the_filter_may_select_at_most_the_cap(tenant, make_documents, bulk, monkeypatch):
    from services.bulk import bulk as bulk_service

    make_documents(tenant, 3, tags=["many"])
    monkeypatch.setattr(bulk_service, "MAX_DOCUMENTS", 2)
    tags = {"op": "addTags", "tags": ["x"]}
    assert _errors(bulk({"filter": {"tag": ["many"]}, "operations": [tags]})) == [
        ("VALIDATION_ERROR", "filter")
    ]
    monkeypatch.setattr(bulk_service, "MAX_DOCUMENTS", 3)
    _job(bulk({"filter": {"tag": ["many"]}, "operations": [tags]}))


def test_scopes(tenant, create_key, make_documents, bulk, job_of):
    ids = make_documents(tenant, 1)
    trash = {"documentIds": ids, "operations": [{"op": "trash"}]}
    reader = auth_headers(create_key(tenant, scopes=["documents:read"])[1], tenant.id)
    assert _errors(bulk(trash, reader), 403) == [("INSUFFICIENT_SCOPE", None)]
    writer = auth_headers(create_key(tenant, scopes=["documents:write"])[1], tenant.id)
    start = {"documentIds": ids, "operations": [{"op": "startWorkflow", "definitionId": "wfd_x"}]}
    assert _errors(bulk(start, writer), 403) == [("INSUFFICIENT_SCOPE", None)]
    job = _job(bulk(trash, writer))
    assert _errors(job_of(job["id"], writer), 403) == [("INSUFFICIENT_SCOPE", None)]


def test_an_idempotency_key_answers_the_same_job_again(tenant, make_documents, bulk, job_of, app):
    ids = make_documents(tenant, 1)
    body = {"documentIds": ids, "operations": [{"op": "trash"}]}
    first = _job(bulk(body, **{"Idempotency-Key": "bulk-1"}))
    again = bulk(body, **{"Idempotency-Key": "bulk-1"})
    assert _job(again)["id"] == first["id"] and again.headers["Idempotent-Replayed"] == "true"
    other = {"documentIds": ids, "operations": [{"op": "restore"}]}
    assert _errors(bulk(other, **{"Idempotency-Key": "bulk-1"})) == [
        ("IDEMPOTENCY_KEY_REUSED", "Idempotency-Key")
    ]
    from sqlalchemy import func, select

    from extensions import db
    from models import Job

    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Job)) == 1

"""Submissions: one error per failing field, 409 unless published, the version answered,
files that become documents (and none left behind by a failing submission), Idempotency-Key,
size and nesting bounds, a pattern that would backtrack for ever, the event."""

from __future__ import annotations

import hashlib
import io
import json
import os
import time

import pytest
from sqlalchemy import func, select

from tests.forms.conftest import EXPENSE_SCHEMA, errors_of

VALID = {"name": "Ada", "amount": 12, "category": "travel", "spentOn": "2026-11-20"}


def _submit(client, headers, form_id, data, **kwargs):
    return client.post(
        f"/api/v1/forms/{form_id}/submissions", json={"data": data}, headers=headers, **kwargs
    )


def _multipart(client, headers, form_id, data, files, extra_headers=None):
    body = {"data": json.dumps(data)}
    for name, (content, filename) in files.items():
        body[name] = (io.BytesIO(content), filename)
    return client.post(
        f"/api/v1/forms/{form_id}/submissions",
        data=body,
        headers={**headers, **(extra_headers or {})},
        content_type="multipart/form-data",
    )


def _count(app, model) -> int:
    from extensions import db

    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(model))


def _blobs(app, tenant_id="acme") -> list[str]:
    root = os.path.join(app.config["DMS_STORAGE_DIR"], tenant_id)
    return [f for _, _, files in os.walk(root) for f in files]


def test_a_valid_submission(client, headers, api_key, make_form):
    form = make_form()
    response = _submit(client, headers, form["id"], VALID)
    assert response.status_code == 201, response.get_json()
    sub = response.get_json()["data"]
    assert sub["id"].startswith("sub_") and sub["formId"] == form["id"]
    assert sub["formVersion"] == 1 and sub["data"] == VALID
    assert sub["submittedBy"] == api_key[0].id
    assert sub["documentIds"] == [] and sub["workflowInstanceId"] is None
    assert response.headers["Location"].endswith(f"/api/v1/forms/submissions/{sub['id']}")
    got = client.get(f"/api/v1/forms/submissions/{sub['id']}", headers=headers)
    assert got.get_json()["data"] == sub


def test_one_error_per_failing_field_named_by_json_pointer(client, headers, make_form):
    form = make_form()
    bad = {"amount": 0, "category": "boats", "spentOn": "2026-13-45", "email": "no", "x": 1}
    response = _submit(client, headers, form["id"], bad)
    assert response.status_code == 422
    errors = response.get_json()["errors"]
    assert {e["code"] for e in errors} == {"VALIDATION_ERROR"}
    fields = [e["field"] for e in errors]
    assert sorted(fields) == ["/amount", "/category", "/email", "/name", "/spentOn", "/x"]
    assert len(fields) == len(set(fields))
    assert "is required" in errors_of(response)["/name"]


def test_nested_fields_are_named_by_their_full_pointer(client, headers, make_form):
    schema = {
        "type": "object",
        "properties": {
            "address": {
                "type": "object",
                "properties": {"zip": {"type": "string", "maxLength": 5}},
                "required": ["city"],
            },
            "items": {"type": "array", "items": {"type": "integer"}},
        },
    }
    form = make_form(schema)
    data = {"address": {"zip": "1234567"}, "items": [1, "two"]}
    response = _submit(client, headers, form["id"], data)
    assert sorted(errors_of(response)) == ["/address/city", "/address/zip", "/items/1"]


@pytest.mark.parametrize("status", ["draft", "archived"])
def test_a_form_that_is_not_published_takes_no_submission(client, headers, make_form, status):
    form = make_form(status="draft")
    if status == "archived":
        client.patch(f"/api/v1/forms/{form['id']}", json={"status": "archived"}, headers=headers)
    response = _submit(client, headers, form["id"], VALID)
    assert response.status_code == 409
    assert response.get_json()["errors"][0]["code"] == "CONFLICT"


def test_a_submission_records_the_version_it_answered(client, headers, make_form):
    form = make_form()
    first = _submit(client, headers, form["id"], VALID).get_json()["data"]
    schema = {**EXPENSE_SCHEMA, "required": ["name", "amount", "category"]}
    client.patch(f"/api/v1/forms/{form['id']}", json={"schema": schema}, headers=headers)
    refused = _submit(client, headers, form["id"], {"name": "Bo", "amount": 3})
    assert list(errors_of(refused)) == ["/category"]
    second = _submit(client, headers, form["id"], VALID).get_json()["data"]
    assert (first["formVersion"], second["formVersion"]) == (1, 2)
    only_v1 = client.get(
        f"/api/v1/forms/{form['id']}/submissions?formVersion=1", headers=headers
    ).get_json()["data"]
    assert [s["id"] for s in only_v1] == [first["id"]]


def test_list_submissions_pages_and_filters(client, headers, make_form):
    form = make_form()
    ids = [_submit(client, headers, form["id"], VALID).get_json()["data"]["id"] for _ in range(3)]
    url = f"/api/v1/forms/{form['id']}/submissions"
    page = client.get(f"{url}?limit=2", headers=headers).get_json()
    assert [s["id"] for s in page["data"]] == ids[:0:-1]
    cursor = page["meta"]["pagination"]["nextCursor"]
    rest = client.get(f"{url}?limit=2&cursor={cursor}", headers=headers).get_json()
    assert [s["id"] for s in rest["data"]] == [ids[0]]
    assert client.get(f"{url}?submittedBy=public", headers=headers).get_json()["data"] == []
    future = client.get(f"{url}?createdAfter=2999-01-01T00:00:00", headers=headers)
    assert future.status_code == 200 and future.get_json()["data"] == []
    assert client.get(f"{url}?colour=red", headers=headers).status_code == 400


def test_files_become_documents(client, headers, make_form):
    form = make_form()
    response = _multipart(
        client, headers, form["id"], VALID, {"receipt": (b"%PDF-1.4 receipt", "receipt.pdf")}
    )
    assert response.status_code == 201, response.get_json()
    sub = response.get_json()["data"]
    [doc_id] = sub["documentIds"]
    assert sub["data"]["receipt"] == doc_id
    document = client.get(f"/api/v1/documents/{doc_id}", headers=headers).get_json()["data"]
    assert document["filename"] == "receipt.pdf"
    assert document["metadata"] == {
        "formId": form["id"],
        "submissionId": sub["id"],
        "formField": "receipt",
    }


def test_a_json_submission_may_name_an_existing_document_but_not_anothers(
    client, headers, make_form, store_document, tenant, other_tenant
):
    form = make_form()
    mine = store_document(tenant, b"mine", "mine.txt")
    theirs = store_document(other_tenant, b"theirs", "theirs.txt")
    ok = _submit(client, headers, form["id"], {**VALID, "receipt": mine})
    assert ok.status_code == 201 and ok.get_json()["data"]["documentIds"] == [mine]
    refused = _submit(client, headers, form["id"], {**VALID, "receipt": theirs})
    assert refused.status_code == 422 and list(errors_of(refused)) == ["/receipt"]


def test_a_failing_submission_with_files_leaves_nothing_behind(app, client, headers, make_form):
    from models import Document, Event, FormSubmission

    form = make_form()
    events_before = _count(app, Event)
    content = b"a receipt that must not stay"
    response = _multipart(
        client, headers, form["id"], {"name": "Ada"}, {"receipt": (content, "r.txt")}
    )
    assert response.status_code == 422 and list(errors_of(response)) == ["/amount"]
    unknown = _multipart(client, headers, form["id"], VALID, {"photo": (content, "p.txt")})
    assert unknown.status_code == 422 and list(errors_of(unknown)) == ["/photo"]
    assert _count(app, Document) == 0 and _count(app, FormSubmission) == 0
    assert _count(app, Event) == events_before
    assert hashlib.sha256(content).hexdigest() not in _blobs(app)


def test_a_file_over_the_upload_limit_is_413_and_leaves_nothing(
    app, client, headers, make_form, monkeypatch
):
    from models import Document

    form = make_form()
    monkeypatch.setitem(app.config, "DMS_MAX_UPLOAD_BYTES", 1000)
    response = _multipart(client, headers, form["id"], VALID, {"receipt": (b"x" * 5000, "big.bin")})
    assert response.status_code == 413
    assert response.get_json()["errors"][0]["code"] == "PAYLOAD_TOO_LARGE"
    assert _count(app, Document) == 0
    assert hashlib.sha256(b"x" * 5000).hexdigest() not in _blobs(app)


def test_two_files_for_one_field_are_refused(client, headers, make_form):
    form = make_form()
    response = client.post(
        f"/api/v1/forms/{form['id']}/submissions",
        data={
            "data": json.dumps(VALID),
            "receipt": [(io.BytesIO(b"a"), "a.txt"), (io.BytesIO(b"b"), "b.txt")],
        },
        headers=headers,
        content_type="multipart/form-data",
    )
    assert response.status_code == 422 and list(errors_of(response)) == ["/receipt"]


def test_idempotency_key_replays_a_submission_with_files(app, client, headers, make_form):
    from models import Document, FormSubmission

    form = make_form()
    key = {"Idempotency-Key": "claim-42"}
    files = {"receipt": (b"the same receipt", "r.txt")}
    first = _multipart(client, headers, form["id"], VALID, files, key)
    again = _multipart(client, headers, form["id"], VALID, files, key)
    assert first.status_code == again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()
    assert _count(app, FormSubmission) == 1 and _count(app, Document) == 1
    other = _multipart(client, headers, form["id"], VALID, {"receipt": (b"other", "r.txt")}, key)
    assert other.status_code == 422
    assert other.get_json()["errors"][0]["code"] == "IDEMPOTENCY_KEY_REUSED"
    json_key = {**headers, "Idempotency-Key": "json-1"}
    one = _submit(client, json_key, form["id"], VALID)
    two = _submit(client, json_key, form["id"], VALID)
    assert two.headers["Idempotent-Replayed"] == "true" and two.get_json() == one.get_json()


def test_deeply_nested_or_huge_data_is_a_clear_422(client, headers, make_form):
    form = make_form({"type": "object"})
    deep: dict = {}
    node = deep
    for _ in range(60):
        node["x"] = {}
        node = node["x"]
    response = _submit(client, headers, form["id"], deep)
    assert response.status_code == 422 and "nests deeper" in errors_of(response)[""]
    huge = {"text": "x" * 300_000}
    response = _submit(client, headers, form["id"], huge)
    assert response.status_code == 422 and "larger than" in errors_of(response)[""]


def test_data_must_be_an_object(client, headers, make_form):
    form = make_form()
    response = _submit(client, headers, form["id"], [1, 2])
    assert response.status_code == 422


def test_a_backtracking_pattern_fails_its_field_quickly(client, headers, make_form, monkeypatch):
    """A pattern the save-time probe missed still cannot hold a worker: the match is timed."""
    from services.forms import schemas

    monkeypatch.setattr(schemas, "_pattern_problems", lambda patterns: iter(()))
    schema = {"type": "object", "properties": {"code": {"type": "string", "pattern": "^(a|aa)+$"}}}
    form = make_form(schema)
    started = time.monotonic()
    response = _submit(client, headers, form["id"], {"code": "a" * 60 + "!"})
    assert time.monotonic() - started < 2
    assert response.status_code == 422
    assert "too complex" in errors_of(response)["/code"]


def test_many_backtracking_fields_share_one_budget(client, headers, make_form, monkeypatch):
    from services.forms import schemas

    monkeypatch.setattr(schemas, "_pattern_problems", lambda patterns: iter(()))
    props = {f"c{i}": {"type": "string", "pattern": "^(a|aa)+$"} for i in range(40)}
    form = make_form({"type": "object", "properties": props})
    started = time.monotonic()
    response = _submit(client, headers, form["id"], {f"c{i}": "a" * 60 + "!" for i in range(40)})
    assert time.monotonic() - started < 2
    assert response.status_code == 422 and len(response.get_json()["errors"]) == 40


def test_the_submission_event_is_emitted(app, client, headers, make_form):
    from extensions import db
    from models import Event

    form = make_form()
    sub = _submit(client, headers, form["id"], VALID).get_json()["data"]
    with app.app_context():
        event = db.session.scalar(select(Event).where(Event.type == "form.submission.created"))
        assert event.data["submission"] == sub
        assert event.data["form"] == {"id": form["id"], "name": "Expense claim", "version": 1}

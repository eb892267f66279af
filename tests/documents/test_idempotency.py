"""Idempotency-Key on uploads (CONTRACT §6): replay, mismatch, in use, expiry, concurrency."""

from __future__ import annotations

import io
import threading
from datetime import timedelta

from sqlalchemy import func, select
from werkzeug.datastructures import FileStorage, MultiDict
from werkzeug.test import encode_multipart

import clock
from tests.helpers import auth_headers


def _count_documents(app) -> int:
    from extensions import db
    from models import Document

    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Document))


def test_replay_returns_the_stored_response(upload, app):
    key = {"Idempotency-Key": "upload-1"}
    first = upload(b"same bytes", "a.txt", title="A", extra_headers=key)
    second = upload(b"same bytes", "a.txt", title="A", extra_headers=key)  # new boundary
    assert (first.status_code, second.status_code) == (201, 201)
    assert "Idempotent-Replayed" not in first.headers
    assert second.headers["Idempotent-Replayed"] == "true"
    assert second.get_json() == first.get_json()
    assert second.headers["Location"] == first.headers["Location"]
    assert second.headers["X-Request-Id"] != first.headers["X-Request-Id"]
    assert _count_documents(app) == 1


def test_same_key_with_a_different_request_is_422(upload, app):
    key = {"Idempotency-Key": "upload-2"}
    assert upload(b"one", "a.txt", extra_headers=key).status_code == 201
    for changed in (
        upload(b"two", "a.txt", extra_headers=key),
        upload(b"one", "b.txt", extra_headers=key),
        upload(b"one", "a.txt", title="other", extra_headers=key),
    ):
        assert changed.status_code == 422
        assert changed.get_json()["errors"][0]["code"] == "IDEMPOTENCY_KEY_REUSED"
    assert _count_documents(app) == 1


def test_key_still_in_progress_is_409(upload, app, tenant):
    from services.core import idempotency

    with app.app_context():
        idempotency.claim(tenant.id, "busy", "POST", "/api/v1/documents")
    response = upload(extra_headers={"Idempotency-Key": "busy"})
    assert response.status_code == 409
    assert response.get_json()["errors"][0]["code"] == "IDEMPOTENCY_KEY_IN_USE"
    assert response.headers["Retry-After"] == "1"
    # A holder presumed dead (an hour in progress) frees the key.
    clock.shift(timedelta(hours=1, seconds=1))
    assert upload(extra_headers={"Idempotency-Key": "busy"}).status_code == 201


def test_keys_expire_after_24_hours(upload, app):
    key = {"Idempotency-Key": "daily"}
    first = upload(b"x", "x.txt", extra_headers=key).get_json()["data"]["id"]
    clock.shift(timedelta(hours=23, minutes=59))
    assert upload(b"x", "x.txt", extra_headers=key).get_json()["data"]["id"] == first
    clock.shift(timedelta(minutes=2))
    again = upload(b"x", "x.txt", extra_headers=key)
    assert again.status_code == 201
    assert "Idempotent-Replayed" not in again.headers
    assert again.get_json()["data"]["id"] != first


def test_a_failed_request_releases_its_key(upload, app):
    key = {"Idempotency-Key": "retry-me"}
    refused = upload(b"x", "x.txt", metadata="not json", extra_headers=key)
    assert refused.status_code == 422
    fixed = upload(b"x", "x.txt", extra_headers=key)
    assert fixed.status_code == 201
    assert "Idempotent-Replayed" not in fixed.headers


def test_keys_are_per_tenant(upload, other_tenant, create_key, app):
    key = {"Idempotency-Key": "shared-name"}
    mine = upload(b"x", "x.txt", extra_headers=key)
    _, secret = create_key(other_tenant)
    theirs = upload(b"x", "x.txt", extra_headers=key, auth=auth_headers(secret, other_tenant.id))
    assert (mine.status_code, theirs.status_code) == (201, 201)
    assert "Idempotent-Replayed" not in theirs.headers
    assert mine.get_json()["data"]["id"] != theirs.get_json()["data"]["id"]


def test_the_same_key_on_another_path_is_422(upload, make_document):
    doc = make_document(b"v1", "v.txt")
    key = {"Idempotency-Key": "path-bound"}
    assert upload(b"v2", "v.txt", extra_headers=key).status_code == 201
    other = upload(
        b"v2", "v.txt", extra_headers=key, path=f"/api/v1/documents/{doc['id']}/versions"
    )
    assert other.status_code == 422


def test_invalid_keys_are_400(upload):
    for bad in ("", "x" * 256, "has space"):
        response = upload(extra_headers={"Idempotency-Key": bad})
        assert response.status_code == 400, bad
        assert response.get_json()["errors"][0]["field"] == "Idempotency-Key"


def test_version_uploads_replay_too(upload, make_document, client, headers):
    doc = make_document(b"v1", "v.txt")
    path = f"/api/v1/documents/{doc['id']}/versions"
    key = {"Idempotency-Key": "version-2"}
    first = upload(b"v2", "v.txt", extra_headers=key, path=path)
    second = upload(b"v2", "v.txt", extra_headers=key, path=path)
    assert (first.status_code, second.status_code) == (201, 201)
    assert second.headers["Idempotent-Replayed"] == "true"
    versions = client.get(f"/api/v1/documents/{doc['id']}/versions", headers=headers)
    assert [v["number"] for v in versions.get_json()["data"]] == [2, 1]


def test_concurrent_identical_uploads_create_one_document(app, headers):
    content = b"concurrent upload " * 50_000  # ~900 KB, so the requests overlap
    barrier = threading.Barrier(8)
    results: list = []
    lock = threading.Lock()

    def send() -> None:
        client = app.test_client()
        # Encoded in memory (each with its own random boundary): no spooled temp files.
        boundary, body = encode_multipart(
            MultiDict({"file": FileStorage(io.BytesIO(content), "same.txt"), "title": "same"})
        )
        barrier.wait()
        response = client.post(
            "/api/v1/documents",
            data=body,
            headers={**headers, "Idempotency-Key": "eight-at-once"},
            content_type=f"multipart/form-data; boundary={boundary}",
        )
        with lock:
            results.append((response.status_code, response.get_json()))

    threads = [threading.Thread(target=send) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert len(results) == 8
    statuses = sorted(status for status, _ in results)
    assert set(statuses) <= {201, 409}, statuses
    created = {body["data"]["id"] for status, body in results if status == 201}
    assert len(created) == 1
    for status, body in results:
        if status == 409:
            assert body["errors"][0]["code"] == "IDEMPOTENCY_KEY_IN_USE"
    assert _count_documents(app) == 1


def test_document_and_its_stored_response_commit_together(upload, app, monkeypatch):
    """If recording the response fails, the upload leaves nothing behind (no document, no
    event, key free), and the retry with the same key creates exactly one document."""
    from extensions import db
    from models import Event
    from services.core import idempotency

    real_complete = idempotency.complete

    def failing_complete(*args, **kwargs):
        raise RuntimeError("the process died here")

    monkeypatch.setattr(idempotency, "complete", failing_complete)
    key = {"Idempotency-Key": "atomic-1"}
    failed = upload(b"atomic bytes", "a.txt", extra_headers=key)
    assert failed.status_code == 500
    assert _count_documents(app) == 0
    with app.app_context():
        created = select(func.count()).where(Event.type == "document.created")
        assert db.session.scalar(created) == 0

    monkeypatch.setattr(idempotency, "complete", real_complete)
    retried = upload(b"atomic bytes", "a.txt", extra_headers=key)
    assert retried.status_code == 201 and "Idempotent-Replayed" not in retried.headers
    assert _count_documents(app) == 1


def test_the_daily_job_deletes_expired_records(upload, app):
    from extensions import db
    from jobs.core import expire_idempotency_records
    from models.idempotency import IdempotencyRecord

    assert upload(b"x", "a.txt", extra_headers={"Idempotency-Key": "old-1"}).status_code == 201
    clock.shift(timedelta(hours=23))
    with app.app_context():
        assert expire_idempotency_records()["idempotencyRecords"] == 0
    clock.shift(timedelta(hours=2))
    with app.app_context():
        assert expire_idempotency_records()["idempotencyRecords"] == 1
        assert db.session.scalar(select(func.count()).select_from(IdempotencyRecord)) == 0

"""Documents through the API with the S3 blob store: upload, download with ETag and Range,
text extraction from S3, the purge racing an upload, and the daily clean-up."""

from __future__ import annotations

import hashlib
import io
from datetime import timedelta

import clock
from extensions import db
from models import Document
from services.documents.blobs import blob_store
from services.documents.s3_storage import S3BlobStore
from tests.helpers import auth_headers
from tests.s3_server import keys
from tests.support import run_jobs, stored_document

CONTENT = b"quarterly figures for the harbour project\n" * 2000


def _upload(client, headers, content: bytes = CONTENT, name: str = "report.txt"):
    return client.post(
        "/api/v1/documents",
        data={"file": (io.BytesIO(content), name)},
        headers=headers,
        content_type="multipart/form-data",
    )


def test_upload_and_download_with_etag_and_range(s3_app, tenant, api_key, s3_client, bucket):
    client = s3_app.test_client()
    headers = auth_headers(api_key[1], tenant.id)

    created = _upload(client, headers)
    assert created.status_code == 201, created.get_json()
    document = created.get_json()["data"]
    sha = hashlib.sha256(CONTENT).hexdigest()
    assert document["sha256"] == sha and document["contentType"] == "text/plain"
    assert keys(s3_client, bucket) == [f"{tenant.id}/{sha[:2]}/{sha[2:4]}/{sha}"]
    with s3_app.app_context():
        assert isinstance(blob_store(), S3BlobStore)

    url = f"/api/v1/documents/{document['id']}/content"
    whole = client.get(url, headers=headers)
    assert whole.status_code == 200 and whole.data == CONTENT
    assert whole.headers["ETag"] == f'"{sha}"'
    assert whole.headers["Accept-Ranges"] == "bytes"

    part = client.get(url, headers={**headers, "Range": "bytes=100-199"})
    assert part.status_code == 206 and part.data == CONTENT[100:200]
    assert part.headers["Content-Range"] == f"bytes 100-199/{len(CONTENT)}"
    tail = client.get(url, headers={**headers, "Range": "bytes=-7"})
    assert tail.status_code == 206 and tail.data == CONTENT[-7:]
    outside = client.get(url, headers={**headers, "Range": f"bytes={len(CONTENT)}-"})
    assert outside.status_code == 416

    unchanged = client.get(url, headers={**headers, "If-None-Match": f'"{sha}"'})
    assert unchanged.status_code == 304 and unchanged.data == b""


def test_another_tenant_never_reaches_the_blob(s3_app, tenant, other_tenant, api_key, create_key):
    client = s3_app.test_client()
    created = _upload(client, auth_headers(api_key[1], tenant.id)).get_json()["data"]
    foreign = auth_headers(create_key(other_tenant)[1], other_tenant.id)

    answer = client.get(f"/api/v1/documents/{created['id']}/content", headers=foreign)

    assert answer.status_code == 404


def test_an_oversized_upload_leaves_nothing_in_the_bucket(
    make_app, app, s3_settings, tenant, api_key, s3_client, bucket
):
    small = make_app(**s3_settings, DMS_MAX_UPLOAD_BYTES=1000)

    answer = _upload(small.test_client(), auth_headers(api_key[1], tenant.id), b"x" * 5000)

    assert answer.status_code == 413
    assert keys(s3_client, bucket) == []


def test_text_is_extracted_from_the_bucket(s3_app, tenant, api_key):
    client = s3_app.test_client()
    headers = auth_headers(api_key[1], tenant.id)
    created = _upload(client, headers).get_json()["data"]

    run_jobs(s3_app)

    found = client.get("/api/v1/search", query_string={"q": "harbour"}, headers=headers)
    assert [hit["document"]["id"] for hit in found.get_json()["data"]] == [created["id"]]


def test_an_upload_of_the_same_bytes_during_the_purge_keeps_its_blob(
    s3_app, tenant, api_key, monkeypatch
):
    """The purge deletes the blob after the new upload stored it but before it committed:
    the upload's guard puts it back after the commit."""
    from services.documents import documents, purge

    old = stored_document(s3_app, tenant.id, b"the same bytes twice", "old.txt", schedule=False)
    with s3_app.app_context():
        row = db.session.get(Document, old)
        row.status, row.deleted_at = "deleted", clock.now() - timedelta(days=45)
        db.session.commit()
    real_create = documents.create_document

    def purge_first(*args, **kwargs):
        report = purge.purge_trash()
        assert (report.documents, report.blobs_deleted) == (1, 1)  # the race happened
        return real_create(*args, **kwargs)

    monkeypatch.setattr(documents, "create_document", purge_first)
    client = s3_app.test_client()
    headers = auth_headers(api_key[1], tenant.id)

    created = _upload(client, headers, b"the same bytes twice", "new.txt")

    assert created.status_code == 201, created.get_json()
    content = client.get(f"/api/v1/documents/{created.get_json()['data']['id']}/content",
                         headers=headers)  # fmt: skip
    assert content.status_code == 200 and content.data == b"the same bytes twice"


def test_the_daily_job_reclaims_unreferenced_blobs_and_old_guards(
    s3_app, tenant, s3_client, bucket
):
    from services.documents import blobs

    kept = stored_document(s3_app, tenant.id, b"a document's own bytes", "k.txt", schedule=False)
    with s3_app.app_context():
        store = blob_store()
        stray = store.save(tenant.id, io.BytesIO(b"stored, never committed"), max_bytes=1000)

        assert blobs.sweep_unreferenced(older_than_seconds=-60) == 1
        assert store.sweep_temporary(older_than_seconds=-60) == 1  # the stray's guard

        sha = db.session.get(Document, kept).sha256
        assert keys(s3_client, bucket) == [store.key_for(tenant.id, sha)]
        assert not store.exists(tenant.id, stray.sha256)

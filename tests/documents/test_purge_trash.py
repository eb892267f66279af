"""The trash purge: retention, cascade to versions, text and index, shared blobs kept,
the CLI, and the daily schedule."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select, text

import clock
from extensions import db
from models import AuditEntry, Document, DocumentText, DocumentVersion
from services.documents.blobs import blob_store
from tests.helpers import auth_headers, forget_jobs


def _trash(app, document_id: str, days_ago: float) -> None:
    with app.app_context():
        document = db.session.get(Document, document_id)
        document.status = "deleted"
        document.deleted_at = clock.now() - timedelta(days=days_ago)
        db.session.commit()


def _exists(app, document_id: str) -> bool:
    with app.app_context():
        return db.session.get(Document, document_id) is not None


def _blob_exists(app, tenant_id: str, content_of: str) -> bool:
    with app.app_context():
        sha = db.session.scalar(select(Document.sha256).where(Document.id == content_of))
        return blob_store().exists(tenant_id, sha)


def _sha(app, document_id: str) -> str:
    with app.app_context():
        return db.session.get(Document, document_id).sha256


def test_purge_removes_old_trash_with_versions_text_and_blob(app, tenant, store_document, work):
    old = store_document(tenant, b"old trashed bytes", "old.txt")
    work()
    sha = _sha(app, old)
    _trash(app, old, days_ago=31)

    result = app.test_cli_runner().invoke(args=["documents", "purge"])

    assert result.exit_code == 0, result.output
    assert "purged 1 documents; 1 blobs deleted" in result.output
    assert not _exists(app, old)
    with app.app_context():
        assert db.session.get(DocumentText, old) is None
        versions = select(func.count()).select_from(DocumentVersion)
        assert db.session.scalar(versions.where(DocumentVersion.document_id == old)) == 0
        assert not blob_store().exists(tenant.id, sha)
        entry = db.session.scalar(select(AuditEntry).where(AuditEntry.action == "document.purged"))
        assert entry.target_id == old
        if db.engine.dialect.name == "sqlite":
            left = db.session.scalar(
                text("SELECT count(*) FROM document_search WHERE document_id = :id"), {"id": old}
            )
            assert left == 0


def test_recent_trash_and_live_documents_stay(app, tenant, store_document):
    recent = store_document(tenant, b"recently trashed", "r.txt", schedule=False)
    live = store_document(tenant, b"still active", "a.txt", schedule=False)
    _trash(app, recent, days_ago=29)

    result = app.test_cli_runner().invoke(args=["documents", "purge"])

    assert "purged 0 documents" in result.output
    assert _exists(app, recent)
    assert _exists(app, live)


def test_retention_is_configurable(make_app, tenant, store_document, app):
    doc = store_document(tenant, b"short retention", "s.txt", schedule=False)
    _trash(app, doc, days_ago=3)
    strict = make_app(DMS_TRASH_RETENTION_DAYS=2)
    result = strict.test_cli_runner().invoke(args=["documents", "purge"])
    assert "purged 1 documents" in result.output
    assert not _exists(app, doc)


def test_blob_shared_with_a_live_document_is_kept(app, tenant, store_document):
    trashed = store_document(tenant, b"same bytes twice", "one.txt", schedule=False)
    live = store_document(tenant, b"same bytes twice", "two.txt", schedule=False)
    assert _sha(app, trashed) == _sha(app, live)
    _trash(app, trashed, days_ago=40)

    result = app.test_cli_runner().invoke(args=["documents", "purge"])

    assert "purged 1 documents; 0 blobs deleted, 1 kept" in result.output
    assert _blob_exists(app, tenant.id, live)


def test_blob_shared_with_an_old_version_of_another_document_is_kept(app, tenant, store_document):
    trashed = store_document(tenant, b"version one content", "t.txt", schedule=False)
    other = store_document(tenant, b"other's current content", "o.txt", schedule=False)
    with app.app_context():
        # `other` once had the trashed document's bytes as its first version.
        version = db.session.scalar(
            select(DocumentVersion).where(DocumentVersion.document_id == other)
        )
        shared_sha = version.sha256 = db.session.get(Document, trashed).sha256
        db.session.commit()
    _trash(app, trashed, days_ago=40)

    app.test_cli_runner().invoke(args=["documents", "purge"])

    assert not _exists(app, trashed)
    with app.app_context():
        assert blob_store().exists(tenant.id, shared_sha)


def test_same_bytes_in_another_tenant_do_not_keep_a_blob(app, tenant, other_tenant, store_document):
    mine = store_document(tenant, b"identical across tenants", "m.txt", schedule=False)
    theirs = store_document(other_tenant, b"identical across tenants", "t.txt", schedule=False)
    _trash(app, mine, days_ago=60)

    app.test_cli_runner().invoke(args=["documents", "purge"])

    assert _blob_exists(app, other_tenant.id, theirs)
    with app.app_context():
        assert not blob_store().exists(tenant.id, _sha(app, theirs))


def test_the_daily_job_books_its_next_run(app):
    from jobs.documents import DAILY, daily
    from services.core import queue

    assert DAILY.next_run(datetime(2026, 11, 21, 2, 0, tzinfo=UTC)) == datetime(
        2026, 11, 21, 3, 0, tzinfo=UTC
    )
    assert DAILY.next_run(datetime(2026, 11, 21, 3, 0, tzinfo=UTC)).day == 22
    with app.app_context():
        forget_jobs()
        report = daily()
        registry = queue.queue().scheduled_job_registry
        tomorrow = f"{DAILY.next_run():%Y%m%d}"
        assert [j for j in registry.get_job_ids() if j.startswith("documents-daily-")] == [
            queue.named_job_id("documents-daily", tomorrow)
        ]
        assert report == {
            "documents": 0,
            "blobsDeleted": 0,
            "blobsKept": 0,
            "temporaryFiles": 0,
            "unreferencedBlobs": 0,
        }


def test_an_upload_of_the_same_bytes_during_the_purge_keeps_its_blob(
    app, client, tenant, api_key, store_document, monkeypatch
):
    """The purge looks for rows naming the blob after the new upload stored it but before
    the upload committed, finds none, and deletes it: the upload must still own its file."""
    from services.documents import documents, purge

    old = store_document(tenant, b"the same bytes twice", "old.txt", schedule=False)
    _trash(app, old, days_ago=45)
    real_create = documents.create_document

    def purge_first(*args, **kwargs):
        report = purge.purge_trash()
        assert (report.documents, report.blobs_deleted) == (1, 1)  # the race happened
        return real_create(*args, **kwargs)

    monkeypatch.setattr(documents, "create_document", purge_first)
    headers = auth_headers(api_key[1], tenant.id)

    created = client.post(
        "/api/v1/documents",
        data={"file": (io.BytesIO(b"the same bytes twice"), "new.txt")},
        headers=headers,
    )

    assert created.status_code == 201, created.get_json()
    content = client.get(f"/api/v1/documents/{created.get_json()['data']['id']}/content",
                         headers=headers)  # fmt: skip
    assert content.status_code == 200
    assert content.data == b"the same bytes twice"


def test_the_daily_job_reclaims_blobs_no_row_references(app, tenant, store_document):
    """A blob left by a crash between storing and committing: the daily job deletes it once
    it is a day old; referenced blobs and blobs still young stay."""
    import os
    import time

    from jobs.documents import daily

    kept = store_document(tenant, b"a document's own bytes", "k.txt", schedule=False)
    with app.app_context():
        store = blob_store()
        stray = store.save(tenant.id, io.BytesIO(b"stored, never committed"), max_bytes=1000)
        store.release(tenant.id, stray, committed=True)  # as if its process then died
        young = store.save(tenant.id, io.BytesIO(b"an upload still in flight"), max_bytes=1000)
        two_days_ago = time.time() - 2 * 86400
        for sha in (stray.sha256, _sha(app, kept)):
            os.utime(store.path_for(tenant.id, sha), (two_days_ago, two_days_ago))

        report = daily()

        assert report["unreferencedBlobs"] == 1
        assert not store.exists(tenant.id, stray.sha256)
        assert store.exists(tenant.id, _sha(app, kept))
        assert store.exists(tenant.id, young.sha256)
        store.release(tenant.id, young, committed=False)

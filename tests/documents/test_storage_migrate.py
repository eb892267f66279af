"""`flask storage migrate --to s3|local`: every blob copied and verified, resumed after an
interruption, and what cannot be copied reported (exit 1)."""

from __future__ import annotations

import hashlib
import io

import pytest

from extensions import db
from models import Document
from services.documents import migration
from services.documents.blobs import blob_store
from tests.helpers import auth_headers
from tests.s3_server import keys
from tests.support import stored_document

CONTENTS = [f"document number {n}\n".encode() * (n + 1) for n in range(6)]


@pytest.fixture
def local_app(app, make_app, tmp_path):
    """The app on a local store of this test's own."""
    return make_app(DMS_STORAGE_DIR=str(tmp_path / "local"))


@pytest.fixture
def s3_app(app, make_app, s3_settings, tmp_path):
    """The app on the test's bucket, whose other store is `local_app`'s."""
    return make_app(**s3_settings, DMS_STORAGE_DIR=str(tmp_path / "local"))


@pytest.fixture
def documents(local_app, tenant, other_tenant):
    """Six documents on the local store, and the same bytes in a second tenant."""
    ids = [
        stored_document(local_app, tenant.id, content, f"d{n}.txt", schedule=False)
        for n, content in enumerate(CONTENTS)
    ]
    twin = stored_document(local_app, other_tenant.id, CONTENTS[0], "twin.txt", schedule=False)
    return [*ids, twin]


def _migrate(application, to: str):
    return application.test_cli_runner().invoke(args=["storage", "migrate", "--to", to])


def _all_download(application, tenant_keys: dict, ids: list[str]) -> None:
    client = application.test_client()
    with application.app_context():
        rows = [db.session.get(Document, i) for i in ids]
    for row in rows:
        answer = client.get(
            f"/api/v1/documents/{row.id}/content", headers=tenant_keys[row.tenant_id]
        )
        assert answer.status_code == 200
        assert hashlib.sha256(answer.data).hexdigest() == row.sha256


@pytest.fixture
def tenant_keys(tenant, other_tenant, create_key):
    return {t.id: auth_headers(create_key(t)[1], t.id) for t in (tenant, other_tenant)}


def test_interrupted_migration_resumes_and_every_blob_verifies(
    s3_app, documents, tenant_keys, s3_client, bucket, monkeypatch
):
    real_copy = migration.copy_one
    calls = []

    class PowerCut(Exception):
        pass

    class CutStream(io.RawIOBase):
        """The source's bytes, until the power goes half-way through the third blob."""

        def __init__(self, inner):
            self.inner = inner

        def readable(self):
            return True

        def read(self, size=-1):
            raise PowerCut("power cut")

        def close(self):
            self.inner.close()
            super().close()

    class CutSource:
        def __init__(self, inner):
            self.inner = inner

        def open(self, tenant_id, sha256):
            return CutStream(self.inner.open(tenant_id, sha256))

    def flaky_copy(source, target, tenant_id, sha256, report):
        calls.append(sha256)
        if len(calls) == 3:
            return real_copy(CutSource(source), target, tenant_id, sha256, report)
        return real_copy(source, target, tenant_id, sha256, report)

    monkeypatch.setattr(migration, "copy_one", flaky_copy)
    first = _migrate(s3_app, "s3")
    assert isinstance(first.exception, PowerCut)
    monkeypatch.setattr(migration, "copy_one", real_copy)
    blob_keys = [k for k in keys(s3_client, bucket) if not k.startswith(".tmp/")]
    assert len(blob_keys) == 2  # two arrived before the cut

    second = _migrate(s3_app, "s3")

    assert second.exit_code == 0, second.output
    assert "copied 5 blobs" in second.output and "2 already there and verified" in second.output
    assert len([k for k in keys(s3_client, bucket) if not k.startswith(".tmp/")]) == 7
    _all_download(s3_app, tenant_keys, documents)

    third = _migrate(s3_app, "s3")
    assert "copied 0 blobs (0 bytes), 7 already there and verified" in third.output


def test_migrating_back_to_an_empty_local_store(
    s3_app, make_app, s3_settings, documents, tenant_keys, tmp_path
):
    assert _migrate(s3_app, "s3").exit_code == 0
    fresh = make_app(**{**s3_settings, "DMS_STORAGE": "local"}, DMS_STORAGE_DIR=str(tmp_path / "b"))

    result = _migrate(fresh, "local")

    assert result.exit_code == 0, result.output
    assert "copied 7 blobs" in result.output
    _all_download(fresh, tenant_keys, documents)


def test_missing_and_corrupt_blobs_are_reported_and_not_copied(
    local_app, s3_app, documents, tenant, s3_client, bucket
):
    with local_app.app_context():
        lost, damaged = (db.session.get(Document, i) for i in documents[:2])
        store = blob_store()
        store.delete(tenant.id, lost.sha256)
        store.path_for(tenant.id, damaged.sha256).write_bytes(b"bit rot")

    result = _migrate(s3_app, "s3")

    assert result.exit_code == 1
    assert f"missing at the source: {tenant.id}/{lost.sha256}" in result.output
    assert f"do not match its sha256: {tenant.id}/{damaged.sha256}" in result.output
    assert "copied 5 blobs" in result.output
    stored = {(k.partition("/")[0], k.rpartition("/")[2]) for k in keys(s3_client, bucket)}
    assert (tenant.id, lost.sha256) not in stored and (tenant.id, damaged.sha256) not in stored
    assert (tenant.id, hashlib.sha256(b"bit rot").hexdigest()) not in stored
    assert len(stored) == 5


def test_a_damaged_copy_at_the_target_is_replaced(s3_app, documents, tenant, s3_client, bucket):
    assert _migrate(s3_app, "s3").exit_code == 0
    with s3_app.app_context():
        sha = db.session.get(Document, documents[0]).sha256
        s3_client.put_object(Bucket=bucket, Key=blob_store().key_for(tenant.id, sha), Body=b"x")

    result = _migrate(s3_app, "s3")

    assert "copied 1 blobs" in result.output and "6 already there" in result.output
    with s3_app.app_context(), blob_store().open(tenant.id, sha) as fh:
        assert hashlib.sha256(fh.read()).hexdigest() == sha


def test_an_unknown_target_is_refused(s3_app):
    result = _migrate(s3_app, "ftp")
    assert result.exit_code == 2 and "'ftp' is not one of" in result.output

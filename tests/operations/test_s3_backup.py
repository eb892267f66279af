"""`flask backup create|restore` with the blobs in S3 (moto's server, a real S3 protocol): the
backup reads every blob through the store, a restore writes them into another installation's
bucket or onto local disk (the backup's layout does not depend on the store), and a blob gone
from the bucket is named in the manifest as missing rather than failing the backup."""

from __future__ import annotations

import hashlib
import json

import pytest

from tests.operations.ops_support import Content, cli, download, upload
from tests.s3_server import keys, new_bucket


@pytest.fixture
def on_s3(s3_app, create_tenant, create_key) -> tuple[str, list[Content]]:
    """acme on the S3 app: a document with two versions, and another with the first's bytes
    (one blob for both)."""
    tenant = create_tenant("acme")
    _, secret = create_key(tenant)
    client = s3_app.test_client()
    first, final = b"acme report, first draft\n", b"acme report, final\n" * 2000
    doc = upload(client, secret, "acme", first, title="report")
    upload(client, secret, "acme", final, path=f"/api/v1/documents/{doc['id']}/versions")
    again = upload(client, secret, "acme", first, title="copy")
    contents = [
        Content("acme", doc["id"], 1, first),
        Content("acme", doc["id"], 2, final),
        Content("acme", again["id"], 1, first),
    ]
    return secret, contents


def _backed_up(app, tmp_path):
    target = tmp_path / "backup"
    result = cli(app, "backup", "create", str(target))
    assert result.exit_code == 0, result.output
    return target, json.loads((target / "manifest.json").read_text())


def _restored_and_served(fresh, target, secret: str, contents: list[Content]) -> None:
    result = cli(fresh, "backup", "restore", str(target))
    assert result.exit_code == 0, result.output
    client = fresh.test_client()
    for content in contents:
        response = download(client, secret, content)
        assert response.status_code == 200, response.get_json()
        assert hashlib.sha256(response.data).hexdigest() == content.sha256


def test_a_backup_of_s3_restores_into_another_bucket(
    s3_app, on_s3, s3_client, s3_endpoint, bucket, fresh_install, tmp_path
):
    secret, contents = on_s3
    target, manifest = _backed_up(s3_app, tmp_path)
    assert manifest["missingBlobs"] == []
    blobs = {name: entry for name, entry in manifest["files"].items() if name.startswith("blobs/")}
    assert sorted(blobs) == sorted({f"blobs/acme/{c.sha256}" for c in contents})
    for name, entry in blobs.items():
        assert hashlib.sha256((target / name).read_bytes()).hexdigest() == entry["sha256"]

    other = new_bucket(s3_client)
    fresh = fresh_install(DMS_STORAGE="s3", DMS_S3_BUCKET=other, DMS_S3_ENDPOINT_URL=s3_endpoint)
    _restored_and_served(fresh, target, secret, contents)
    assert len(keys(s3_client, other)) == len(blobs) == 2
    assert keys(s3_client, other) == keys(s3_client, bucket)  # the same content addresses


def test_a_backup_of_s3_restores_onto_local_disk(s3_app, on_s3, fresh_install, tmp_path):
    secret, contents = on_s3
    target, _ = _backed_up(s3_app, tmp_path)
    fresh = fresh_install()  # DMS_STORAGE=local, its own directory
    _restored_and_served(fresh, target, secret, contents)


def test_a_blob_gone_from_the_bucket_is_named_missing(s3_app, on_s3, s3_store, tmp_path):
    _, contents = on_s3
    lost = contents[1]
    s3_store.delete("acme", lost.sha256)  # the app's bucket: s3_store and s3_app share it
    target = tmp_path / "backup"
    result = cli(s3_app, "backup", "create", str(target))
    assert result.exit_code == 0, result.output
    assert f"blobs/acme/{lost.sha256} was not in the blob store" in result.output
    manifest = json.loads((target / "manifest.json").read_text())
    assert manifest["missingBlobs"] == [f"blobs/acme/{lost.sha256}"]
    assert f"blobs/acme/{lost.sha256}" not in manifest["files"]
    assert not (target / "blobs" / "acme" / lost.sha256).exists()  # no empty file left behind

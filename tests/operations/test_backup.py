"""`flask backup create|restore`: a whole installation backed up, wiped (a brand-new database
and blob directory) and restored; every document downloads with its sha256, the audit chains
verify, keys still authenticate. And the attacks: tampered files, unexpected names, a
non-empty target, a backup of the other database, an interrupted restore."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from errors import DomainError
from extensions import db
from services.operations import backup, databases
from tests.helpers import auth_headers
from tests.operations.ops_support import cli, download, migrated


@pytest.fixture
def backed_up(app, populated, tmp_path) -> Path:
    with app.app_context():
        # Entries beyond the ones the set-up wrote: a key revoked, then one more created.
        result = cli(app, "keys", "create", "acme", "--name", "spare", "--scopes", "documents:read")
        assert result.exit_code == 0, result.output
    target = tmp_path / "backup"
    result = cli(app, "backup", "create", str(target))
    assert result.exit_code == 0, result.output
    return target


def test_round_trip_into_a_fresh_installation(app, populated, backed_up, fresh_install):
    manifest = json.loads((backed_up / "manifest.json").read_text())
    assert manifest["format"] == "dms-backup" and manifest["missingBlobs"] == []
    # Two tenants, each with its own copy of the shared bytes: 3 distinct blobs per tenant.
    assert sum(name.startswith("blobs/") for name in manifest["files"]) == 6
    for name, entry in manifest["files"].items():
        assert hashlib.sha256((backed_up / name).read_bytes()).hexdigest() == entry["sha256"]

    fresh = fresh_install()
    result = cli(fresh, "backup", "restore", str(backed_up))
    assert result.exit_code == 0, result.output

    client = fresh.test_client()
    for content in populated.contents:
        response = download(client, populated.secrets[content.tenant_id], content)
        assert response.status_code == 200
        assert hashlib.sha256(response.data).hexdigest() == content.sha256
    for slug in ("acme", "globex"):
        verified = cli(fresh, "audit", "verify", slug)
        assert verified.exit_code == 0, verified.output
        me = client.get("/api/v1/documents", headers=auth_headers(populated.secrets[slug], slug))
        assert me.status_code == 200
        assert len(me.get_json()["data"]) == 2


def test_restore_into_a_migrated_empty_installation(populated, backed_up, fresh_install):
    fresh = migrated(fresh_install())
    result = cli(fresh, "backup", "restore", str(backed_up))
    assert result.exit_code == 0, result.output
    assert cli(fresh, "audit", "verify", "acme").exit_code == 0


def test_restore_refuses_an_installation_with_tenants(app, populated, backed_up):
    result = cli(app, "backup", "restore", str(backed_up))
    assert result.exit_code == 1
    assert "empty" in result.output and "--force" in result.output


def test_restore_with_force_replaces_an_installation(app, populated, backed_up, fresh_install):
    fresh = migrated(fresh_install())
    assert cli(fresh, "tenants", "create", "initech", "--plan", "free").exit_code == 0
    assert cli(fresh, "backup", "restore", str(backed_up)).exit_code == 1
    result = cli(fresh, "backup", "restore", "--force", str(backed_up))
    assert result.exit_code == 0, result.output
    listed = cli(fresh, "tenants", "list").output
    assert "acme" in listed and "initech" not in listed


def test_create_refuses_a_directory_with_files(app, populated, tmp_path):
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "notes.txt").write_text("mine")
    result = cli(app, "backup", "create", str(tmp_path / "busy"))
    assert result.exit_code == 1 and "not an empty directory" in result.output


def _untouched(app) -> None:
    """Nothing was restored: still no tenant, no blob."""
    with app.app_context():
        assert databases.is_empty(db.engine)
    storage = Path(app.config["DMS_STORAGE_DIR"])
    assert not list(storage.glob("*/??/??/*"))


def test_a_tampered_blob_is_refused_before_anything_is_restored(backed_up, fresh_install):
    blob = next((backed_up / "blobs" / "acme").iterdir())
    blob.write_bytes(blob.read_bytes() + b"!")
    fresh = fresh_install()
    result = cli(fresh, "backup", "restore", str(backed_up))
    assert result.exit_code == 1
    assert "does not match its checksum" in result.output
    _untouched(fresh)


def test_a_tampered_database_is_refused(backed_up, fresh_install):
    manifest = json.loads((backed_up / "manifest.json").read_text())
    dump = backed_up / manifest["database"]["file"]
    dump.write_bytes(dump.read_bytes()[:-10])
    fresh = fresh_install()
    result = cli(fresh, "backup", "restore", str(backed_up))
    assert result.exit_code == 1 and "does not match its checksum" in result.output
    _untouched(fresh)


def test_a_missing_file_is_refused(backed_up, fresh_install):
    next((backed_up / "blobs" / "globex").iterdir()).unlink()
    result = cli(fresh_install(), "backup", "restore", str(backed_up))
    assert result.exit_code == 1 and "missing from the backup" in result.output


@pytest.mark.parametrize(
    "name",
    ["../../etc/passwd", "/etc/passwd", "blobs/acme/../../x", "blobs/ACME/" + "0" * 64, "x.py"],
)
def test_a_manifest_naming_unexpected_paths_is_refused(backed_up, fresh_install, name):
    manifest = json.loads((backed_up / "manifest.json").read_text())
    manifest["files"][name] = {"sha256": "0" * 64, "size": 1}
    (backed_up / "manifest.json").write_text(json.dumps(manifest))
    fresh = fresh_install()
    result = cli(fresh, "backup", "restore", str(backed_up))
    assert result.exit_code == 1 and "unexpected file" in result.output
    _untouched(fresh)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "tar"}, "not a dms-backup manifest"),
        ({"version": 99}, "version 99"),
        ({"database": {"dialect": "sqlite", "file": "other.db"}}, "does not list"),
    ],
)
def test_a_manifest_of_another_kind_is_refused(backed_up, fresh_install, change, message):
    manifest = json.loads((backed_up / "manifest.json").read_text())
    manifest.update(change)
    (backed_up / "manifest.json").write_text(json.dumps(manifest))
    result = cli(fresh_install(), "backup", "restore", str(backed_up))
    assert result.exit_code == 1 and message in result.output


def test_an_unfinished_backup_has_no_manifest_and_is_refused(backed_up, fresh_install):
    (backed_up / "manifest.json").unlink()
    result = cli(fresh_install(), "backup", "restore", str(backed_up))
    assert result.exit_code == 1 and "unfinished" in result.output


def test_a_backup_of_the_other_database_is_refused(backed_up, fresh_install):
    manifest = json.loads((backed_up / "manifest.json").read_text())
    other = "postgresql" if manifest["database"]["dialect"] == "sqlite" else "sqlite"
    manifest["database"]["dialect"] = other
    (backed_up / "manifest.json").write_text(json.dumps(manifest))
    result = cli(fresh_install(), "backup", "restore", str(backed_up))
    assert result.exit_code == 1 and f"backup is of a {other} database" in result.output


def test_an_interrupted_restore_is_resumed_by_running_it_again(populated, backed_up, fresh_install):
    """Killed while copying blobs: no tenant was restored yet, so running the command again
    is allowed, and it completes."""
    fresh = fresh_install()

    def interrupted(items, label, total):
        for done, item in enumerate(items):
            if label == "blobs" and done == 2:
                raise KeyboardInterrupt
            yield item

    with fresh.app_context(), pytest.raises(KeyboardInterrupt):
        backup.restore(backed_up, progress=interrupted)
    _assert_partly_restored(fresh)
    result = cli(fresh, "backup", "restore", str(backed_up))
    assert result.exit_code == 0, result.output
    client = fresh.test_client()
    for content in populated.contents:
        response = download(client, populated.secrets[content.tenant_id], content)
        assert hashlib.sha256(response.data).hexdigest() == content.sha256


def _assert_partly_restored(app) -> None:
    with app.app_context():
        assert databases.is_empty(db.engine)
    assert len(list(Path(app.config["DMS_STORAGE_DIR"]).glob("*/??/??/*"))) == 2


def test_missing_postgres_tools_give_a_clear_error(app, monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setitem(app.config, "DMS_PG_BIN_DIR", str(tmp_path))
    monkeypatch.setattr(databases, "_TOOL_DIRS", str(tmp_path / "none"))
    with app.app_context(), pytest.raises(DomainError) as raised:
        databases.find_tool("pg_dump")
    assert "pg_dump not found" in raised.value.errors[0].message
    assert "DMS_PG_BIN_DIR" in raised.value.errors[0].message

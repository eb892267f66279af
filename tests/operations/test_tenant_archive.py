"""`flask tenants export|import`: a tenant carried to another installation (with another audit
key) under the same or a new slug, then the attacks: a tampered member, a manifest and
members rewritten together without the checksum given, path-traversal names, a slug that
exists, an archive imported twice, a broken audit chain."""

from __future__ import annotations

import hashlib
import json
import zipfile
from pathlib import Path

import pytest

from config import parse_audit_keys
from extensions import db
from models import Tenant, User
from services.operations import archive
from tests.helpers import auth_headers
from tests.operations.ops_support import Content, cli, download, migrated

OTHER_AUDIT_KEY = "elsewhere:" + "e" * 43


@pytest.fixture
def richer(app, client, populated, create_user):
    """acme also holds a workflow, a form, an entity and tagged documents with metadata."""
    headers = auth_headers(populated.secrets["acme"], "acme")
    with app.app_context():
        approver = db.session.scalar(db.select(User.id).where(User.tenant_id == "acme"))
    flow = client.post(
        "/api/v1/workflows",
        json={"name": "Approval", "steps": [{"name": "A", "approvers": [{"user": approver}]}]},
        headers=headers,
    )
    assert flow.status_code == 201, flow.get_json()
    schema = {"type": "object", "properties": {"name": {"type": "string", "title": "Name"}}}
    form = client.post(
        "/api/v1/forms", json={"name": "Claim", "schema": schema, "status": "published"},
        headers=headers,
    )  # fmt: skip
    assert form.status_code == 201, form.get_json()
    body = {"type": "organization", "name": "Acme Corp"}
    entity = client.post("/api/v1/knowledge-graph/entities", json=body, headers=headers)
    assert entity.status_code == 201, entity.get_json()
    return {"workflow": flow.get_json()["data"]["id"], "form": form.get_json()["data"]["id"],
            "entity": entity.get_json()["data"]["id"]}  # fmt: skip


@pytest.fixture
def exported(app, richer, tmp_path) -> Path:
    target = tmp_path / "acme.zip"
    result = cli(app, "tenants", "export", "acme", str(target))
    assert result.exit_code == 0, result.output
    assert result.output.strip().splitlines()[-1] == f"sha256 {_sha(target)}"
    return target


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _elsewhere(fresh_install):
    """Another installation: its own database, blob directory and audit key."""
    return migrated(fresh_install(DMS_AUDIT_KEYS=parse_audit_keys(OTHER_AUDIT_KEY)))


def _rows(app, slug: str, table: str) -> list[dict]:
    with app.app_context():
        t = db.metadata.tables[table]
        return [
            dict(r)
            for r in db.session.execute(db.select(t).where(t.c.tenant_id == slug)).mappings()
        ]


@pytest.mark.parametrize("slug", [None, "acme-moved"])
def test_round_trip_into_another_installation(
    app, populated, richer, exported, fresh_install, slug
):
    other = _elsewhere(fresh_install)
    args = ["tenants", "import", str(exported), "--sha256", _sha(exported)]
    result = cli(other, *args, *(["--slug", slug] if slug else []))
    assert result.exit_code == 0, result.output
    new = slug or "acme"

    # Documents, every version, byte for byte; tags, metadata, title, and search finds them.
    client = other.test_client()
    secret = _new_key(other, new)
    for content in populated.contents:
        if content.tenant_id != "acme":
            continue
        moved = Content(new, content.document_id, content.version, content.data)
        response = download(client, secret, moved)
        assert response.status_code == 200
        assert hashlib.sha256(response.data).hexdigest() == content.sha256
    for table in ("documents", "document_tags", "document_versions", "workflow_definitions",
                  "forms", "entities", "users"):  # fmt: skip
        before = _rows(app, "acme", table)
        after = _rows(other, new, table)
        assert len(after) == len(before) > 0, table
        assert {r.get("id", r.get("tag")) for r in after} == {
            r.get("id", r.get("tag")) for r in before
        }
    found = client.get("/api/v1/search", query_string={"q": "report"},
                       headers=auth_headers(secret, new))  # fmt: skip
    assert found.status_code == 200 and len(found.get_json()["data"]) == 1
    # Passwords do not travel without --with-secrets; the operator gives a new one.
    assert all(u["password_hash"] is None for u in _rows(other, new, "users"))
    assert cli(other, "users", "set-password", new, "admin@acme.test").exit_code == 0
    assert cli(other, "users", "set-password", new, "nobody@acme.test").exit_code == 1
    assert _rows(other, new, "users")[0]["password_hash"]

    # The chain: the source's entries archived and linked, the live chain sealed here.
    verified = cli(other, "audit", "verify", new)
    assert verified.exit_code == 0, verified.output
    source_entries = len(_rows(app, "acme", "audit_entries"))
    assert f"{source_entries} imported entries linked to 1 imports" in verified.output
    live = _rows(other, new, "audit_entries")
    first = min(live, key=lambda e: e["seq"])
    assert (first["seq"], first["action"]) == (1, "tenant.imported")
    source_head = max(_rows(app, "acme", "audit_entries"), key=lambda e: e["seq"])["hash"]
    assert first["details"]["head"] == source_head
    assert first["details"]["archiveSha256"] == _sha(exported)


def _new_key(app, slug: str) -> str:
    scopes = "documents:read"
    result = cli(app, "keys", "create", slug, "--name", "reader", "--scopes", scopes)
    return result.output.strip().splitlines()[-1]


def test_the_archive_is_documented_zip(exported):
    with zipfile.ZipFile(exported) as zf:
        manifest = json.loads(zf.read("manifest.json"))
        names = set(zf.namelist())
    assert manifest["format"] == "dms-tenant-archive" and manifest["version"] == 1
    assert manifest["tenant"]["id"] == "acme" and manifest["withSecrets"] is False
    assert names == set(manifest["files"]) | {"manifest.json"}
    assert "tables/api_keys.jsonl" not in names and "tables/documents.jsonl" in names
    assert manifest["tables"]["documents"]["rows"] == 2
    assert manifest["audit"]["entries"] >= 5
    with zipfile.ZipFile(exported) as zf:
        for name, entry in manifest["files"].items():
            assert hashlib.sha256(zf.read(name)).hexdigest() == entry["sha256"]


def test_with_secrets_keys_and_passwords_travel(app, populated, tmp_path, fresh_install):
    target = tmp_path / "secret.zip"
    assert cli(app, "tenants", "export", "globex", str(target), "--with-secrets").exit_code == 0
    other = _elsewhere(fresh_install)
    assert cli(other, "tenants", "import", str(target)).exit_code == 0
    # The API key of the source authenticates at the new installation.
    response = other.test_client().get(
        "/api/v1/documents", headers=auth_headers(populated.secrets["globex"], "globex")
    )
    assert response.status_code == 200 and len(response.get_json()["data"]) == 2


def test_a_slug_that_exists_is_refused(app, exported):
    result = cli(app, "tenants", "import", str(exported))
    assert result.exit_code == 1 and "already exists" in result.output
    assert "--slug" in result.output


def test_a_copy_within_the_installation_names_the_tenant_that_blocks_it(app, exported):
    """Exported and imported under a new slug in the same installation: refused because the
    source tenant holds the ids, which is what the message says (nothing was imported before)."""
    result = cli(app, "tenants", "import", str(exported), "--slug", "acme-copy")
    assert result.exit_code == 1
    assert "tenant 'acme' holds them" in result.output
    assert "imported before" not in result.output
    with app.app_context():
        assert db.session.get(Tenant, "acme-copy") is None


def test_importing_twice_into_one_installation_is_refused_whole(exported, fresh_install):
    other = _elsewhere(fresh_install)
    assert cli(other, "tenants", "import", str(exported)).exit_code == 0
    again = cli(other, "tenants", "import", str(exported), "--slug", "acme-copy")
    assert again.exit_code == 1 and "already in this installation" in again.output
    assert "tenant 'acme' holds them" in again.output
    with other.app_context():
        assert db.session.get(Tenant, "acme-copy") is None
    storage = Path(other.config["DMS_STORAGE_DIR"])
    assert not (storage / "acme-copy").exists() or not list((storage / "acme-copy").glob("??/??/*"))


def _rewrite(path: Path, change) -> None:
    """Rewrite the zip with `change(members)` applied to a {name: bytes} dict."""
    with zipfile.ZipFile(path) as zf:
        members = {name: zf.read(name) for name in zf.namelist()}
    change(members)
    path.unlink()
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)


def _refused(fresh_install, path: Path, message: str, *extra: str) -> None:
    other = _elsewhere(fresh_install)
    result = cli(other, "tenants", "import", str(path), *extra)
    assert result.exit_code == 1, result.output
    assert message in result.output
    with other.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Tenant)) == 0


def test_a_tampered_member_is_refused(exported, fresh_install):
    def change(members):
        name = next(n for n in members if n.startswith("blobs/"))
        members[name] = members[name] + b"tampered"

    _rewrite(exported, change)
    _refused(fresh_install, exported, "larger than the manifest says")


def test_a_tampered_row_is_refused(exported, fresh_install):
    def change(members):
        members["tables/documents.jsonl"] = members["tables/documents.jsonl"].replace(
            b"acme report", b"evil report"
        )

    _rewrite(exported, change)
    _refused(fresh_install, exported, "does not match its checksum")


def test_rewriting_the_manifest_too_is_caught_by_the_printed_sha256(exported, fresh_install):
    printed = _sha(exported)

    def change(members):
        documents = members["tables/documents.jsonl"].replace(b"acme report", b"evil report")
        members["tables/documents.jsonl"] = documents
        manifest = json.loads(members["manifest.json"])
        manifest["files"]["tables/documents.jsonl"] = {
            "sha256": hashlib.sha256(documents).hexdigest(),
            "size": len(documents),
        }
        members["manifest.json"] = json.dumps(manifest).encode()

    _rewrite(exported, change)
    _refused(fresh_install, exported, "not the one given with --sha256", "--sha256", printed)


@pytest.mark.parametrize(
    "name",
    ["../../evil.txt", "/etc/cron.d/evil", "blobs/../../evil", "tables/../x.jsonl", "extra.txt"],
)
def test_unexpected_member_names_are_refused(exported, fresh_install, name):
    _rewrite(exported, lambda members: members.__setitem__(name, b"x"))
    _refused(fresh_install, exported, "unexpected member")


def test_a_manifest_naming_a_traversal_path_is_refused(exported, fresh_install):
    def change(members):
        manifest = json.loads(members["manifest.json"])
        manifest["files"]["../../evil"] = {"sha256": "0" * 64, "size": 1}
        members["manifest.json"] = json.dumps(manifest).encode()

    _rewrite(exported, change)
    _refused(fresh_install, exported, "unexpected member")


def test_an_unknown_table_or_column_is_refused(exported, fresh_install):
    def change(members):
        line = json.loads(members["tables/forms.jsonl"].splitlines()[0])
        line["owner_password"] = "x"
        data = (json.dumps(line) + "\n").encode()
        members["tables/forms.jsonl"] = data
        manifest = json.loads(members["manifest.json"])
        manifest["files"]["tables/forms.jsonl"] = {
            "sha256": hashlib.sha256(data).hexdigest(),
            "size": len(data),
        }
        members["manifest.json"] = json.dumps(manifest).encode()

    _rewrite(exported, change)
    _refused(fresh_install, exported, "has no column 'owner_password'")


def test_a_broken_archived_chain_is_refused(exported, fresh_install):
    def change(members):
        lines = members[archive.AUDIT_FILE].splitlines()
        del lines[1]  # an entry cut out of the middle
        data = b"\n".join(lines) + b"\n"
        members[archive.AUDIT_FILE] = data
        manifest = json.loads(members["manifest.json"])
        manifest["files"][archive.AUDIT_FILE] = {
            "sha256": hashlib.sha256(data).hexdigest(),
            "size": len(data),
        }
        members["manifest.json"] = json.dumps(manifest).encode()

    _rewrite(exported, change)
    _refused(fresh_install, exported, "audit entry #2")


def _same_key(app, fresh_install):
    """Another installation that holds this one's audit key (the operator's, on both sides)."""
    return migrated(fresh_install(DMS_AUDIT_KEYS=dict(app.config["DMS_AUDIT_KEYS"])))


def _edit_entry_and_fix_the_manifest(members, keep_signature: bool = True) -> None:
    """The attack: entry #2 says someone else did it; the manifest's size and sha256 of
    audit/entries.jsonl are made to match again."""
    lines = members[archive.AUDIT_FILE].splitlines()
    entry = json.loads(lines[1])
    entry["actor_label"] = "someone-else@x.test"
    lines[1] = json.dumps(entry, ensure_ascii=False, sort_keys=True).encode()
    data = b"\n".join(lines) + b"\n"
    members[archive.AUDIT_FILE] = data
    manifest = json.loads(members["manifest.json"])
    manifest["files"][archive.AUDIT_FILE] = {
        "sha256": hashlib.sha256(data).hexdigest(),
        "size": len(data),
    }
    if not keep_signature:
        manifest.pop("signature", None)
    members["manifest.json"] = json.dumps(manifest).encode()


def _refused_by(other, path: Path, message: str) -> None:
    result = cli(other, "tenants", "import", str(path))
    assert result.exit_code == 1, result.output
    assert message in result.output
    with other.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Tenant)) == 0


def test_an_edited_audit_entry_with_its_checksum_fixed_is_refused(app, exported, fresh_install):
    _rewrite(exported, _edit_entry_and_fix_the_manifest)
    _refused_by(_same_key(app, fresh_install), exported, "signature does not verify")


def test_an_edited_audit_entry_in_an_unsigned_archive_is_refused(app, exported, fresh_install):
    _rewrite(exported, lambda members: _edit_entry_and_fix_the_manifest(members, False))
    _refused_by(_same_key(app, fresh_install), exported, "audit entry #2: contents do not match")


def test_an_edited_manifest_is_refused(app, exported, fresh_install):
    def change(members):
        manifest = json.loads(members["manifest.json"])
        manifest["tenant"]["plan"] = "enterprise"
        members["manifest.json"] = json.dumps(manifest).encode()

    _rewrite(exported, change)
    _refused_by(_same_key(app, fresh_install), exported, "signature does not verify")


def test_a_signed_archive_imports_quietly_where_its_key_is_configured(app, exported, fresh_install):
    other = _same_key(app, fresh_install)
    result = cli(other, "tenants", "import", str(exported))
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output
    verified = cli(other, "audit", "verify", "acme")
    assert verified.exit_code == 0, verified.output


def test_an_archive_whose_key_is_not_configured_here_is_imported_with_a_warning(
    exported, fresh_install
):
    other = _elsewhere(fresh_install)
    result = cli(other, "tenants", "import", str(exported))
    assert result.exit_code == 0, result.output
    assert "warning: manifest.json is signed with audit key" in result.output
    assert "not configured here" in result.output
    assert "archived audit entries are sealed with audit key" in result.output
    # With the sha256 the export printed, the archive is checked whole: nothing to warn of.
    pinned = cli(_elsewhere(fresh_install), "tenants", "import", str(exported), "--sha256",
                 _sha(exported))  # fmt: skip
    assert pinned.exit_code == 0 and "warning" not in pinned.output


def test_not_a_zip_is_refused(tmp_path, fresh_install):
    bogus = tmp_path / "bogus.zip"
    bogus.write_bytes(b"PK not really")
    _refused(fresh_install, bogus, "not a readable zip")


def test_an_archive_from_a_newer_format_is_refused(exported, fresh_install):
    def change(members):
        manifest = json.loads(members["manifest.json"])
        manifest["version"] = 2
        members["manifest.json"] = json.dumps(manifest).encode()

    _rewrite(exported, change)
    _refused(fresh_install, exported, "format version 2")


def test_export_refuses_an_existing_file_and_an_unknown_tenant(app, populated, tmp_path):
    (tmp_path / "taken.zip").write_text("mine")
    assert cli(app, "tenants", "export", "acme", str(tmp_path / "taken.zip")).exit_code == 1
    assert (tmp_path / "taken.zip").read_text() == "mine"
    result = cli(app, "tenants", "export", "initech", str(tmp_path / "x.zip"))
    assert result.exit_code == 1 and not (tmp_path / "x.zip").exists()


def test_every_travelling_table_can_be_loaded_without_what_stays_behind(app):
    """A table that travels may point at one that does not only through a nullable column
    (emptied on import); and no secret-looking column travels unless listed."""
    for with_secrets in (False, True):
        travelling = {t.name for t in archive.travelling_tables(with_secrets)} | {"tenants"}
        for table in archive.travelling_tables(with_secrets):
            for fk in table.foreign_keys:
                if fk.column.table.name not in travelling:
                    assert fk.parent.nullable, f"{table.name}.{fk.parent.name}"
    reviewed = {"sha256", "hash", "prev_hash", "secret_hint", "token_hint", "key_id", "dedupe_key"}
    for table in archive.travelling_tables(with_secrets=False):
        for column in table.c:
            secretish = any(w in column.name for w in ("secret", "password", "token", "hash"))
            if secretish and column.name not in reviewed:
                assert column.name in archive.SECRET_COLUMNS.get(table.name, set()), (
                    f"{table.name}.{column.name} looks secret: list it in SECRET_COLUMNS or "
                    "its table in NOT_EXPORTED"
                )


def test_a_tenant_moved_twice_keeps_both_chains_linked(exported, fresh_install, tmp_path):
    second = _elsewhere(fresh_install)
    assert cli(second, "tenants", "import", str(exported)).exit_code == 0
    again = tmp_path / "again.zip"
    assert cli(second, "tenants", "export", "acme", str(again)).exit_code == 0
    third = migrated(fresh_install(DMS_AUDIT_KEYS=parse_audit_keys("third:" + "t" * 43)))
    result = cli(third, "tenants", "import", str(again), "--slug", "acme-3")
    assert result.exit_code == 0, result.output
    verified = cli(third, "audit", "verify", "acme-3")
    assert verified.exit_code == 0, verified.output
    assert "linked to 2 imports" in verified.output


def test_an_archived_entry_altered_after_import_is_reported(exported, fresh_install):
    other = _elsewhere(fresh_install)
    assert cli(other, "tenants", "import", str(exported)).exit_code == 0
    with other.app_context():
        table = db.metadata.tables["imported_audit_entries"]
        db.session.execute(db.delete(table).where(table.c.seq == 2))
        db.session.commit()
    result = cli(other, "audit", "verify", "acme")
    assert result.exit_code == 2
    assert "BROKEN imported chain" in result.output and "entry #2 is missing" in result.output


def test_an_archived_entry_edited_after_import_is_reported_where_its_key_is_configured(
    app, exported, fresh_install
):
    other = _same_key(app, fresh_install)
    assert cli(other, "tenants", "import", str(exported)).exit_code == 0
    with other.app_context():
        table = db.metadata.tables["imported_audit_entries"]
        edit = db.update(table).where(table.c.seq == 2).values(actor_label="someone-else")
        db.session.execute(edit)
        db.session.commit()
    result = cli(other, "audit", "verify", "acme")
    assert result.exit_code == 2
    assert "entry #2: contents do not match its hash" in result.output

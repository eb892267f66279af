"""Notes travel in the tenant archive (docs/tenant-archive.md): the rows, their authors and
mentions as written, and the imported index finds a document by its notes."""

from __future__ import annotations

from config import parse_audit_keys
from extensions import db
from tests.helpers import auth_headers
from tests.operations.ops_support import cli, migrated


def _notes(app, slug: str) -> list[dict]:
    with app.app_context():
        table = db.metadata.tables["notes"]
        rows = db.session.execute(db.select(table).where(table.c.tenant_id == slug)).mappings()
        return sorted((dict(r) for r in rows), key=lambda r: r["id"])


def test_notes_travel_and_are_found_after_the_import(
    app, tenant, create_user, document, write_note, fresh_install, tmp_path
):
    ann = create_user(tenant, "member", email="ann@acme.example")
    write_note(document, "Kumquat delivery, @ann@acme.example please confirm.")
    archive = tmp_path / "acme.zip"
    assert cli(app, "tenants", "export", tenant.id, str(archive)).exit_code == 0

    other = migrated(fresh_install(DMS_AUDIT_KEYS=parse_audit_keys("elsewhere:" + "e" * 43)))
    result = cli(other, "tenants", "import", str(archive), "--slug", "acme-moved")
    assert result.exit_code == 0, result.output
    before, after = _notes(app, tenant.id), _notes(other, "acme-moved")
    assert len(after) == 1
    assert {k: v for k, v in after[0].items() if k not in ("tenant_id", "created_at")} == {
        k: v for k, v in before[0].items() if k not in ("tenant_id", "created_at")
    }
    assert after[0]["mentions"] == [ann.id]

    made = cli(other, "keys", "create", "acme-moved", "--name", "r", "--scopes", "documents:read")
    secret = made.output.strip().splitlines()[-1]
    found = other.test_client().get(
        "/api/v1/search", query_string={"q": "kumquat"}, headers=auth_headers(secret, "acme-moved")
    )
    assert [hit["document"]["id"] for hit in found.get_json()["data"]] == [document]
    listed = other.test_client().get(
        f"/api/v1/documents/{document}/notes", headers=auth_headers(secret, "acme-moved")
    )
    assert listed.get_json()["data"][0]["body"].startswith("Kumquat")

"""The tenant archive carries custom fields and every document's values: imported into
another installation (under another slug too), the documents show the same values and the
list filters by them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from config import parse_audit_keys
from tests.customfields.conftest import values_of
from tests.helpers import auth_headers
from tests.operations.ops_support import cli, migrated


@pytest.mark.parametrize("slug", [None, "acme-moved"])
def test_export_and_import_keep_fields_and_values(
    app, client, headers, tenant, make_field, make_doc, patch_values, fresh_install, tmp_path, slug
):
    total = make_field("Total", "monetary")
    kind = make_field("Kind", "select", options=[{"label": "Invoice"}])
    due = make_field("Due", "date")
    linked = make_doc("linked")
    doc = make_doc("invoice")
    link = make_field("Link", "documentLink")
    values = {
        total["id"]: {"currency": "EUR", "amount": "12.30"},
        kind["id"]: kind["options"][0]["id"],
        due["id"]: "2025-02-28",
        link["id"]: [linked["id"]],
    }
    assert patch_values(doc["id"], values).status_code == 200
    archive = Path(tmp_path) / "acme.zip"
    assert cli(app, "tenants", "export", tenant.id, str(archive)).exit_code == 0

    other = migrated(fresh_install(DMS_AUDIT_KEYS=parse_audit_keys("elsewhere:" + "e" * 43)))
    result = cli(other, "tenants", "import", str(archive), *(["--slug", slug] if slug else []))
    assert result.exit_code == 0, result.output
    new = slug or tenant.id
    created = cli(other, "keys", "create", new, "--name", "r", "--scopes", "documents:read")
    moved = auth_headers(created.output.strip().splitlines()[-1], new)
    there = other.test_client()
    read = there.get(f"/api/v1/documents/{doc['id']}", headers=moved).get_json()["data"]
    assert values_of(read) == values_of(
        client.get(f"/api/v1/documents/{doc['id']}", headers=headers).get_json()["data"]
    )
    fields = there.get("/api/v1/custom-fields", headers=moved).get_json()["data"]
    assert {f["id"] for f in fields} == {total["id"], kind["id"], due["id"], link["id"]}
    query = json.dumps(["AND", [["Total", "gte", "12.3"], ["Due", "exact", "2025-02-28"]]])
    found = there.get("/api/v1/documents", query_string={"customFieldQuery": query}, headers=moved)
    assert [d["id"] for d in found.get_json()["data"]] == [doc["id"]]

"""Every document carries `source`: `api` for the API's uploads, `form` (with the form's and
submission's ids) for a form submission's files, kept by a tenant import, `import` for an
archive's documents that have none; the list filters by it like `status`."""

from __future__ import annotations

import hashlib
import io
import json
import zipfile

from config import parse_audit_keys
from extensions import db
from tests.operations.ops_support import cli, migrated

EXPENSE = {
    "type": "object",
    "properties": {"receipt": {"type": "string", "format": "binary"}},
}


def _titles(client, headers, query: str) -> list[str]:
    response = client.get(f"/api/v1/documents?{query}", headers=headers)
    assert response.status_code == 200, response.get_json()
    return sorted(d["title"] for d in response.get_json()["data"])


def _form_document(client, headers) -> dict:
    made = client.post(
        "/api/v1/forms",
        json={"name": "Receipts", "schema": EXPENSE, "status": "published"},
        headers=headers,
    )
    assert made.status_code == 201, made.get_json()
    form = made.get_json()["data"]
    submitted = client.post(
        f"/api/v1/forms/{form['id']}/submissions",
        data={"data": "{}", "receipt": (io.BytesIO(b"%PDF-1.4 receipt"), "r.pdf")},
        headers=headers,
        content_type="multipart/form-data",
    )
    assert submitted.status_code == 201, submitted.get_json()
    submission = submitted.get_json()["data"]
    [document_id] = submission["documentIds"]
    document = client.get(f"/api/v1/documents/{document_id}", headers=headers).get_json()["data"]
    assert document["source"] == {
        "type": "form",
        "formId": form["id"],
        "submissionId": submission["id"],
    }
    return document


def test_uploads_are_api_form_files_form_and_the_list_filters_by_source(client, headers, upload):
    uploaded = upload("uploaded")
    assert uploaded["source"] == {"type": "api"}
    _form_document(client, headers)
    listed = client.get("/api/v1/documents?source=api", headers=headers).get_json()["data"]
    assert [d["source"] for d in listed] == [{"type": "api"}]
    assert _titles(client, headers, "source=api") == ["uploaded"]
    assert _titles(client, headers, "source=form") == ["r.pdf"]
    assert _titles(client, headers, "source=api,form") == ["r.pdf", "uploaded"]
    assert _titles(client, headers, "source=api&source=form") == ["r.pdf", "uploaded"]
    assert _titles(client, headers, "source=mail") == []
    bad = client.get("/api/v1/documents?source=fax", headers=headers)
    assert bad.status_code == 400
    assert bad.get_json()["errors"][0]["code"] == "INVALID_PARAMETER"
    assert bad.get_json()["errors"][0]["field"].startswith("source")


def test_search_filters_by_source_too(client, headers, upload, work):
    upload("kumquat notes")
    work()
    found = client.get("/api/v1/search?q=kumquat&source=api", headers=headers).get_json()
    assert [h["document"]["title"] for h in found["data"]] == ["kumquat notes"]
    none = client.get("/api/v1/search?q=kumquat&source=form", headers=headers).get_json()
    assert none["data"] == []


def _sources(app, slug: str) -> dict[str, dict]:
    with app.app_context():
        table = db.metadata.tables["documents"]
        rows = db.session.execute(
            db.select(table.c.id, table.c.source).where(table.c.tenant_id == slug)
        )
        return dict(rows.all())


def _without_sources(path, out) -> None:
    """The archive at `path` as an installation from before `source` wrote it."""
    member = "tables/documents.jsonl"
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(out, "w") as target:
        manifest = json.loads(source.read("manifest.json"))
        for info in source.infolist():
            data = source.read(info.filename)
            if info.filename == member:
                rows = [json.loads(line) for line in data.decode().splitlines() if line]
                data = "".join(
                    json.dumps({k: v for k, v in row.items() if k != "source"}) + "\n"
                    for row in rows
                ).encode()
                manifest["files"][member] = {
                    "sha256": hashlib.sha256(data).hexdigest(),
                    "size": len(data),
                }
            if info.filename != "manifest.json":
                target.writestr(info.filename, data)
        target.writestr("manifest.json", json.dumps(manifest))


def test_an_import_keeps_each_source_and_marks_an_archives_without_one_import(
    app, client, headers, tenant, upload, fresh_install, tmp_path
):
    uploaded = upload("uploaded")
    from_form = _form_document(client, headers)
    archive = tmp_path / "acme.zip"
    assert cli(app, "tenants", "export", tenant.id, str(archive)).exit_code == 0

    other = migrated(fresh_install(DMS_AUDIT_KEYS=parse_audit_keys("elsewhere:" + "e" * 43)))
    kept = cli(other, "tenants", "import", str(archive), "--slug", "acme-moved")
    assert kept.exit_code == 0, kept.output
    assert _sources(other, "acme-moved") == {
        uploaded["id"]: {"type": "api"},
        from_form["id"]: from_form["source"],
    }

    older = tmp_path / "older.zip"
    _without_sources(archive, older)
    third = migrated(fresh_install(DMS_AUDIT_KEYS=parse_audit_keys("third:" + "t" * 43)))
    marked = cli(third, "tenants", "import", str(older), "--slug", "acme-older")
    assert marked.exit_code == 0, marked.output
    assert set(map(json.dumps, _sources(third, "acme-older").values())) == {
        json.dumps({"type": "import"})
    }


def test_the_document_page_shows_where_it_came_from(client, headers, admin_client):
    document = _form_document(client, headers)
    page = admin_client.get(f"/documents/{document['id']}").get_data(as_text=True)
    shown = page.split('id="document-source">', 1)[1].split("</dd>", 1)[0]
    assert 'data-source="form"' in shown and ">Form<" in shown
    assert document["source"]["formId"] in shown and document["source"]["submissionId"] in shown

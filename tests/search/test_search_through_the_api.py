"""The whole path through the public API: upload, the worker extracts, search finds; a PATCH
re-indexes; the trash hides; versions replace the indexed text; purge empties the index."""

from __future__ import annotations

import io
from pathlib import Path

from tests.fixture_files import make_docx, text_pdf
from tests.search.conftest import ids_of
from tests.support import run_jobs


def _upload(client, headers, content: bytes, filename: str, **fields) -> dict:
    data = {"file": (io.BytesIO(content), filename), **fields}
    response = client.post(
        "/api/v1/documents", data=data, headers=headers, content_type="multipart/form-data"
    )
    assert response.status_code == 201, response.get_json()
    return response.get_json()["data"]


def test_uploaded_files_become_searchable_after_extraction(
    app, client, headers, find, tmp_path: Path
):
    pdf = _upload(client, headers, text_pdf([["Turbine maintenance schedule"]]), "t.pdf")
    docx = _upload(client, headers, make_docx(tmp_path / "c.docx").read_bytes(), "c.docx")
    assert pdf["textStatus"] == "pending"
    assert find("turbine").get_json()["data"] == []

    run_jobs(app)

    assert ids_of(find("turbine")) == [pdf["id"]]
    assert ids_of(find("widget")) == [docx["id"]]
    got = client.get(f"/api/v1/documents/{pdf['id']}", headers=headers).get_json()["data"]
    assert got["textStatus"] == "done"


def test_patch_reindexes_title_tags_and_metadata(app, client, headers, find):
    doc = _upload(client, headers, b"plain body", "a.txt", title="Alpha")
    run_jobs(app)
    response = client.patch(
        f"/api/v1/documents/{doc['id']}",
        json={"title": "Zeppelin plans", "tags": ["aviation"], "metadata": {"owner": "Hindenburg"}},
        headers=headers,
    )
    assert response.status_code == 200, response.get_json()
    assert ids_of(find("zeppelin")) == [doc["id"]]
    assert ids_of(find("aviation")) == [doc["id"]]
    assert ids_of(find("hindenburg")) == [doc["id"]]
    assert find("alpha").get_json()["data"] == []


def test_trash_hides_and_restore_shows_again(app, client, headers, find):
    doc = _upload(client, headers, b"the nightingale sings", "n.txt")
    run_jobs(app)
    assert client.delete(f"/api/v1/documents/{doc['id']}", headers=headers).status_code in (
        200,
        204,
    )
    assert find("nightingale").get_json()["data"] == []
    assert ids_of(find("nightingale", status="deleted")) == [doc["id"]]
    client.patch(f"/api/v1/documents/{doc['id']}", json={"status": "active"}, headers=headers)
    assert ids_of(find("nightingale")) == [doc["id"]]


def test_a_new_version_replaces_the_indexed_text(app, client, headers, find):
    doc = _upload(client, headers, b"first draft mentions pelicans", "v.txt")
    run_jobs(app)
    response = client.post(
        f"/api/v1/documents/{doc['id']}/versions",
        data={"file": (io.BytesIO(b"second draft mentions flamingos"), "v.txt")},
        headers=headers,
        content_type="multipart/form-data",
    )
    assert response.status_code == 201, response.get_json()
    run_jobs(app)
    assert ids_of(find("flamingos")) == [doc["id"]]
    assert find("pelicans").get_json()["data"] == []

"""GET /api/v1/documents/{id}/thumbnail: 409 NOT_READY with Retry-After until the job has run,
then the WebP (at most 400 x 560) with its ETag and 304, for each kind of content; scoped to
the tenant and to documents:read; a new version's own picture; the trash as the download."""

from __future__ import annotations

import io

import pytest

from tests.conftest import auth_headers
from tests.thumbnails.files import pdf_pages, png, webp_pixels


def _webp(response) -> tuple[int, int, bytes]:
    assert response.status_code == 200, response.get_json()
    assert response.mimetype == "image/webp"
    assert response.data[:4] == b"RIFF" and response.data[8:12] == b"WEBP"
    width, height, pixels = webp_pixels(response.data)
    assert 0 < width <= 400 and 0 < height <= 560
    return width, height, pixels


def test_not_ready_until_the_job_has_run_then_the_picture(upload, thumbnail, work):
    document = upload(pdf_pages(3), "three.pdf")
    assert document["thumbnailUrl"] == f"/api/v1/documents/{document['id']}/thumbnail"

    waiting = thumbnail(document["id"])
    assert waiting.status_code == 409
    assert waiting.get_json()["errors"][0]["code"] == "NOT_READY"
    assert waiting.headers["Retry-After"] == "5"

    work()
    width, height, _ = _webp(thumbnail(document["id"]))
    assert (width, height) == (396, 560)  # A4 portrait fitted into the box


@pytest.mark.parametrize(
    ("content", "filename", "size"),
    [
        (pdf_pages(1, 842, 595), "landscape.pdf", (400, 283)),
        (png(1200, 800), "wide.png", (400, 267)),  # the nearer of 266.7
        (png(120, 90), "small.png", (120, 90)),  # never enlarged
        (b"line one\nline two\n" * 40, "notes.txt", (400, 560)),
        (b"PK\x03\x04" + b"\x00" * 100, "archive.zip", (400, 560)),  # the type icon
    ],
)
def test_each_kind_of_content_fits_the_box(upload, thumbnail, work, content, filename, size):
    document = upload(content, filename)
    work()
    width, height, _ = _webp(thumbnail(document["id"]))
    assert (width, height) == size


def test_a_transparent_png_is_drawn_on_white(upload, thumbnail, work):
    document = upload(png(40, 40, b"\x00\x00\x00\x00", colour=6), "clear.png")
    work()
    _, _, pixels = _webp(thumbnail(document["id"]))
    assert min(pixels) > 240  # transparent black shows as white, not black


def test_etag_and_304_and_safe_headers(upload, thumbnail, work):
    document = upload(b"hello\n", "hello.txt")
    work()
    first = thumbnail(document["id"])
    _webp(first)
    etag = first.headers["ETag"]
    assert etag.strip('"') and not etag.startswith("W/")
    assert first.headers["X-Content-Type-Options"] == "nosniff"
    assert first.headers["Cache-Control"] == "private, no-cache"
    assert "sandbox" in first.headers["Content-Security-Policy"]

    again = thumbnail(document["id"], **{"If-None-Match": etag})
    assert again.status_code == 304
    assert again.data == b""
    assert again.headers["ETag"] == etag


def test_a_new_version_gets_its_own_picture(client, headers, upload, thumbnail, work):
    document = upload(b"first text\n", "a.txt")
    work()
    before = thumbnail(document["id"]).headers["ETag"]

    response = client.post(
        f"/api/v1/documents/{document['id']}/versions",
        data={"file": (io.BytesIO(png(300, 300)), "b.png")},
        headers=headers,
        content_type="multipart/form-data",
    )
    assert response.status_code == 201
    assert thumbnail(document["id"]).status_code == 409  # never the old content's picture
    work()
    after = thumbnail(document["id"])
    assert _webp(after)[:2] == (300, 300)
    assert after.headers["ETag"] != before


def test_a_trashed_documents_thumbnail_answers_as_its_download(
    client, headers, upload, thumbnail, work
):
    document = upload(b"to the trash\n", "t.txt")
    work()
    assert client.delete(f"/api/v1/documents/{document['id']}", headers=headers).status_code == 200
    download = client.get(f"/api/v1/documents/{document['id']}/content", headers=headers)
    assert download.status_code == 200
    _webp(thumbnail(document["id"]))


def test_another_tenants_document_is_not_found(upload, thumbnail, work, other_tenant, create_key):
    document = upload(b"mine\n", "mine.txt")
    work()
    _, secret = create_key(other_tenant, scopes=["documents:read"])
    response = thumbnail(document["id"], auth=auth_headers(secret, other_tenant.id))
    assert response.status_code == 404
    assert response.get_json()["errors"][0]["code"] == "NOT_FOUND"
    assert thumbnail("doc_doesnotexist").status_code == 404


def test_documents_read_is_needed(upload, thumbnail, work, tenant, create_key):
    document = upload(b"scoped\n", "s.txt")
    work()
    _, secret = create_key(tenant, scopes=["workflows:read"])
    response = thumbnail(document["id"], auth=auth_headers(secret, tenant.id))
    assert response.status_code == 403
    assert response.get_json()["errors"][0]["code"] == "INSUFFICIENT_SCOPE"


def test_the_list_and_the_document_name_the_thumbnail(client, headers, upload):
    document = upload(b"listed\n", "l.txt")
    listed = client.get("/api/v1/documents", headers=headers).get_json()["data"]
    one = client.get(f"/api/v1/documents/{document['id']}", headers=headers).get_json()["data"]
    assert listed[0]["thumbnailUrl"] == one["thumbnailUrl"] == document["thumbnailUrl"]

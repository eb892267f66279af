"""Uploads: binary round trip, sniffed types, size and media-type refusals, hostile names."""

from __future__ import annotations

import hashlib
import io
import os

import pytest

from tests.helpers import auth_headers

PDF = (
    b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n"
    b"2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"
)
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
)


def test_binary_content_round_trips_byte_for_byte(upload, client, headers):
    content = bytes(range(256)) * 300 + os.urandom(5000)
    response = upload(content, "blob.bin", title="Blob", tags=["x"], metadata={"k": "v"})
    assert response.status_code == 201
    doc = response.get_json()["data"]
    assert doc["id"].startswith("doc_")
    assert response.headers["Location"] == f"/api/v1/documents/{doc['id']}"
    assert doc["size"] == len(content)
    assert doc["sha256"] == hashlib.sha256(content).hexdigest()
    assert (doc["title"], doc["tags"], doc["metadata"]) == ("Blob", ["x"], {"k": "v"})
    assert (doc["status"], doc["currentVersion"], doc["textStatus"]) == ("active", 1, "pending")
    assert doc["createdBy"].startswith("key_")

    download = client.get(f"/api/v1/documents/{doc['id']}/content", headers=headers)
    assert download.status_code == 200
    assert download.data == content
    assert download.headers["ETag"] == f'"{doc["sha256"]}"'


def test_empty_file_is_accepted(upload, client, headers):
    response = upload(b"", "empty.txt")
    assert response.status_code == 201
    doc = response.get_json()["data"]
    assert doc["size"] == 0
    download = client.get(f"/api/v1/documents/{doc['id']}/content", headers=headers)
    assert (download.status_code, download.data) == (200, b"")


@pytest.mark.parametrize(
    ("content", "filename", "expected"),
    [
        (PDF, "notes.txt", "application/pdf"),
        (PNG, "photo.pdf", "image/png"),
        (b"# Title\n\nSome *markdown*.\n", "readme.md", "text/markdown"),
        (b"a,b\n1,2\n", "table.csv", "text/csv"),
        (b"plain words only\n", "words.pdf", "text/plain"),
        (b"MZ\x90\x00" + bytes(200), "invoice.pdf", "application/x-dosexec"),
    ],
)
def test_content_type_is_sniffed_from_the_bytes(upload, content, filename, expected):
    response = upload(content, filename)
    assert response.status_code == 201
    assert response.get_json()["data"]["contentType"] == expected


def test_client_content_type_is_ignored(client, headers):
    data = {"file": (io.BytesIO(PDF), "x.pdf", "text/html")}
    response = client.post(
        "/api/v1/documents", data=data, headers=headers, content_type="multipart/form-data"
    )
    assert response.get_json()["data"]["contentType"] == "application/pdf"


def test_title_defaults_to_the_filename_and_tags_take_comma_lists(upload):
    doc = upload(b"x", "report.txt", tags="a, b,a").get_json()["data"]
    assert doc["title"] == "report.txt"
    assert doc["tags"] == ["a", "b"]


@pytest.mark.parametrize(
    ("raw", "stored"),
    [
        ("../../../../etc/passwd", "passwd"),
        # Werkzeug reads backslashes in the quoted name as escapes: only safety is checked.
        ("..\\..\\windows\\win.ini", None),
        ("/absolute/path/evil.sh", "evil.sh"),
        ("..", "upload"),
        ("a\x00b\x1f.txt", "a_b_.txt"),
        ('quote"semi;colon.txt', None),
        ("C:\\Users\\x\\résumé.txt", None),
    ],
)
def test_path_traversal_filenames_never_become_paths(upload, app, raw, stored):
    root = app.config["DMS_STORAGE_DIR"]
    before = _files_outside(root)
    response = upload(b"traversal attempt " + raw.encode(), raw)
    assert response.status_code == 201
    doc = response.get_json()["data"]
    assert stored is None or doc["filename"] == stored
    assert not {"/", "\\", "\x00"} & set(doc["filename"])
    assert not doc["filename"].startswith(".")
    # The only file written is the content-addressed blob, under the tenant's directory.
    blob = os.path.join(root, "acme", doc["sha256"][:2], doc["sha256"][2:4], doc["sha256"])
    assert os.path.isfile(blob)
    assert _files_outside(root) == before


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("..\\..\\windows\\win.ini", "win.ini"),
        ('quote"semi;colon.txt', "quote_semi;colon.txt"),
        ("C:\\Users\\x\\résumé.txt", "résumé.txt"),
        ("dir/../../x", "x"),
        ("   ", "upload"),
        ("e\u0301.txt", "\u00e9.txt"),
        ("a" * 300, "a" * 255),
    ],
)
def test_clean_filename_keeps_only_a_display_name(raw, clean):
    from services.documents.uploads import clean_filename

    assert clean_filename(raw) == clean


def _files_outside(root: str) -> set[str]:
    parent = os.path.dirname(os.path.abspath(root))
    return {name for name in os.listdir(parent) if not name.startswith("storage")}


def test_non_multipart_bodies_are_415(client, headers):
    as_json = client.post("/api/v1/documents", json={"file": "x"}, headers=headers)
    assert as_json.status_code == 415
    assert as_json.get_json()["errors"][0]["code"] == "UNSUPPORTED_MEDIA_TYPE"
    raw = client.post(
        "/api/v1/documents", data=b"bytes", headers=headers, content_type="application/pdf"
    )
    assert raw.status_code == 415


def test_missing_file_part_is_422(client, headers):
    response = client.post(
        "/api/v1/documents",
        data={"title": "no file"},
        headers=headers,
        content_type="multipart/form-data",
    )
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["field"] == "file"


def test_bad_fields_are_422_per_field(upload, app):
    content = b"refused for its fields"
    response = upload(
        content, "x.txt", title="t" * 501, metadata={"bad key!": "v"}, tags=["ok", "y" * 101]
    )
    assert response.status_code == 422
    fields = {e["field"] for e in response.get_json()["errors"]}
    assert fields == {"title", "metadata", "tags"}
    assert hashlib.sha256(content).hexdigest() not in _blobs(app)  # the stored blob went again


def test_metadata_must_be_a_json_object_of_strings(upload):
    assert upload(b"x", "x.txt", metadata="{not json").status_code == 422
    nested = upload(b"x", "x.txt", metadata={"k": {"nested": 1}})
    assert nested.status_code == 422
    assert nested.get_json()["errors"][0]["field"] == "metadata"


def _blobs(app) -> list[str]:
    root = os.path.join(app.config["DMS_STORAGE_DIR"], "acme")
    return [f for _, _, files in os.walk(root) for f in files]


class CountingStream(io.RawIOBase):
    """A request body of `head` then filler, that records how much of it the server read."""

    def __init__(self, head: bytes, filler_size: int) -> None:
        self.head, self.total = head, len(head) + filler_size
        self.pos = self.read_bytes = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:  # the test client measures the length by seeking
        return True

    def seek(self, offset: int, whence: int = 0) -> int:
        self.pos = self.total + offset if whence == 2 else offset
        return self.pos

    def tell(self) -> int:
        return self.pos

    def readinto(self, buffer) -> int:
        size = max(0, min(len(buffer), self.total - self.pos))
        chunk = (self.head[self.pos :] + b"z" * size)[:size]
        buffer[:size] = chunk
        self.pos += size
        self.read_bytes = max(self.read_bytes, self.pos)
        return size


def test_oversized_upload_is_413_without_reading_the_rest(make_app, tenant, api_key):
    limit = 256 * 1024
    app = make_app(DMS_MAX_UPLOAD_BYTES=limit)
    head = (
        b'--b0undary\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n'
        b"Content-Type: application/octet-stream\r\n\r\n"
    )
    body = CountingStream(head, filler_size=limit * 3)
    response = app.test_client().post(
        "/api/v1/documents",
        input_stream=body,
        headers={
            **auth_headers(api_key[1], tenant.id),
            "Content-Type": "multipart/form-data; boundary=b0undary",
        },
    )
    assert response.status_code == 413
    assert response.get_json()["errors"][0]["code"] == "PAYLOAD_TOO_LARGE"
    assert body.read_bytes < limit + 256 * 1024  # stopped soon after the limit
    assert not os.listdir(os.path.join(app.config["DMS_STORAGE_DIR"], ".tmp"))


def test_declared_length_over_the_limit_is_413_before_reading(make_app, tenant, api_key):
    app = make_app(DMS_MAX_UPLOAD_BYTES=1024)
    body = CountingStream(b"", filler_size=10 * 1024 * 1024)
    response = app.test_client().post(
        "/api/v1/documents",
        input_stream=body,
        headers={
            **auth_headers(api_key[1], tenant.id),
            "Content-Type": "multipart/form-data; boundary=x",
        },
    )
    assert response.status_code == 413
    assert body.read_bytes == 0


def test_truncated_multipart_is_400(client, headers):
    body = b'--zz\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc'
    response = client.post(
        "/api/v1/documents",
        data=body,
        headers={**headers, "Content-Type": "multipart/form-data; boundary=zz"},
    )
    assert response.status_code == 400
    assert response.get_json()["errors"][0]["code"] == "INVALID_PARAMETER"


def test_upload_needs_the_write_scope(upload, create_key, tenant):
    _, secret = create_key(tenant, scopes=["documents:read"])
    response = upload(auth=auth_headers(secret, tenant.id))
    assert response.status_code == 403
    assert response.get_json()["errors"][0]["code"] == "INSUFFICIENT_SCOPE"


def _temporary_files(app) -> list[str]:
    tmp = os.path.join(app.config["DMS_STORAGE_DIR"], ".tmp")
    return os.listdir(tmp) if os.path.isdir(tmp) else []


def test_a_second_file_part_is_refused_and_leaves_no_bytes(app, client, headers):
    """The first file is already stored when the second part is met: it must go again,
    guard copy included."""
    temporary_before = set(_temporary_files(app))
    response = client.post(
        "/api/v1/documents",
        data={
            "file": (io.BytesIO(b"first of two files"), "one.txt"),
            "other": (io.BytesIO(b"second of two files"), "two.txt"),
        },
        headers=headers,
        content_type="multipart/form-data",
    )
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["code"] == "VALIDATION_ERROR"
    assert hashlib.sha256(b"first of two files").hexdigest() not in _blobs(app)
    assert set(_temporary_files(app)) <= temporary_before


def test_a_commit_that_fails_takes_the_stored_bytes_with_it(app, client, headers, monkeypatch):
    """The view returned, the unit of work could not commit: nothing of the upload stays."""
    from services.core import transaction

    def disk_full():
        raise OSError("no space left on device")

    monkeypatch.setattr(transaction, "commit", disk_full)
    temporary_before = set(_temporary_files(app))
    response = client.post(
        "/api/v1/documents",
        data={"file": (io.BytesIO(b"never committed"), "n.txt")},
        headers=headers,
        content_type="multipart/form-data",
    )
    monkeypatch.undo()
    assert response.status_code == 500
    assert hashlib.sha256(b"never committed").hexdigest() not in _blobs(app)
    assert set(_temporary_files(app)) <= temporary_before
    listed = client.get("/api/v1/documents", headers=headers).get_json()["data"]
    assert listed == []

"""Downloads: ETag and If-None-Match, byte ranges, safe Content-Disposition, nosniff."""

from __future__ import annotations

from urllib.parse import quote

import pytest

CONTENT = bytes(range(256)) * 4  # 1024 bytes


@pytest.fixture
def doc(make_document):
    return make_document(CONTENT, "data.bin")


def _get(client, headers, doc, **extra):
    return client.get(f"/api/v1/documents/{doc['id']}/content", headers={**headers, **extra})


def test_download_headers(client, headers, doc):
    response = _get(client, headers, doc)
    assert response.status_code == 200
    assert response.headers["ETag"] == f'"{doc["sha256"]}"'
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Accept-Ranges"] == "bytes"
    assert "sandbox" in response.headers["Content-Security-Policy"]
    assert response.headers["Content-Length"] == str(len(CONTENT))
    assert response.headers["Content-Type"] == doc["contentType"]
    assert response.headers["Content-Disposition"] == (
        "attachment; filename=\"data.bin\"; filename*=UTF-8''data.bin"
    )


def test_if_none_match_gives_304(client, headers, doc):
    etag = f'"{doc["sha256"]}"'
    assert _get(client, headers, doc, **{"If-None-Match": etag}).status_code == 304
    assert _get(client, headers, doc, **{"If-None-Match": f'"x", W/{etag}'}).status_code == 304
    assert _get(client, headers, doc, **{"If-None-Match": "*"}).status_code == 304
    stale = _get(client, headers, doc, **{"If-None-Match": '"other"'})
    assert (stale.status_code, stale.data) == (200, CONTENT)


@pytest.mark.parametrize(
    ("header", "start", "end"),
    [
        ("bytes=0-9", 0, 9),
        ("bytes=1000-", 1000, 1023),
        ("bytes=-24", 1000, 1023),
        ("bytes=1020-5000", 1020, 1023),
    ],
)
def test_range_gives_206(client, headers, doc, header, start, end):
    response = _get(client, headers, doc, Range=header)
    assert response.status_code == 206
    assert response.data == CONTENT[start : end + 1]
    assert response.headers["Content-Range"] == f"bytes {start}-{end}/1024"
    assert response.headers["Content-Length"] == str(end - start + 1)


def test_unsatisfiable_range_is_416(client, headers, doc):
    response = _get(client, headers, doc, Range="bytes=5000-6000")
    assert response.status_code == 416
    assert response.headers["Content-Range"] == "bytes */1024"
    assert response.get_json()["errors"][0]["code"] == "RANGE_NOT_SATISFIABLE"


def test_malformed_or_multiple_ranges_get_the_whole_content(client, headers, doc):
    for header in ("bytes=abc", "items=0-1", "bytes=0-1,5-6"):
        response = _get(client, headers, doc, Range=header)
        assert (response.status_code, response.data) == (200, CONTENT), header


def test_if_range_with_an_old_etag_sends_everything(client, headers, doc):
    old = _get(client, headers, doc, Range="bytes=0-1", **{"If-Range": '"old"'})
    assert (old.status_code, len(old.data)) == (200, 1024)
    same = _get(client, headers, doc, Range="bytes=0-1", **{"If-Range": f'"{doc["sha256"]}"'})
    assert (same.status_code, same.data) == (206, CONTENT[:2])


def test_non_ascii_and_hostile_names_get_a_safe_disposition(client, headers, make_document):
    doc = make_document(b"%PDF-1.4 x", "Отчёт 2026 résumé.pdf")
    disposition = _get(client, headers, doc).headers["Content-Disposition"]
    assert disposition == (
        'attachment; filename="2026 resume.pdf"; '
        f"filename*=UTF-8''{quote('Отчёт 2026 résumé.pdf', safe='')}"
    )
    disposition.encode("latin-1")  # header-safe
    hostile = make_document(b"<script>alert(1)</script>", "x;name=evil%00.html")
    response = _get(client, headers, hostile)
    assert response.headers["Content-Disposition"].startswith(
        'attachment; filename="x_name=evil_00.html"; filename*='
    )
    assert response.headers["Content-Type"] == "text/html"
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_unknown_version_is_404(client, headers, doc):
    response = client.get(f"/api/v1/documents/{doc['id']}/content?version=2", headers=headers)
    assert response.status_code == 404
    bad = client.get(f"/api/v1/documents/{doc['id']}/content?version=zero", headers=headers)
    assert bad.status_code == 400

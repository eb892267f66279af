"""A version's bytes as an HTTP response, the one way every download is sent (the API's
`GET /documents/{id}/content` and a share link's public page): always an attachment with a
safe RFC 6266 Content-Disposition, `nosniff` and a sandbox CSP, so no stored HTML or SVG
ever renders as our origin; a strong ETag (the sha256), If-None-Match → 304 and single byte
ranges → 206 where the caller asks for them."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator, Mapping
from typing import BinaryIO
from urllib.parse import quote

from flask import Response, request

from errors import DomainError
from models.documents import DocumentVersion
from services.documents import documents
from services.documents.storage import iter_range

SAFE_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; sandbox",
}
_ASCII_UNSAFE = str.maketrans({'"': "_", "\\": "_", ";": "_", "%": "_"})


def content_disposition(filename: str) -> str:
    """`attachment; filename="<ASCII fallback>"; filename*=UTF-8''<percent-encoded>`."""
    folded = unicodedata.normalize("NFKD", filename).encode("ascii", "ignore").decode()
    fallback = "".join(c for c in folded if c.isprintable()).translate(_ASCII_UNSAFE).strip()
    return (
        f'attachment; filename="{fallback or "download"}"; '
        f"filename*=UTF-8''{quote(filename, safe='')}"
    )


def download_headers(
    version: DocumentVersion, extra: Mapping[str, str] | None = None
) -> dict[str, str]:
    """The headers of any response carrying `version`'s bytes (a HEAD's too)."""
    return {
        "Content-Disposition": content_disposition(version.filename),
        # Tenant data: caches may keep it only for this caller, and must revalidate (ETag).
        "Cache-Control": "private, no-cache",
        **SAFE_HEADERS,
        **(extra or {}),
    }


def content_response(
    version: DocumentVersion, *, conditional: bool = True, extra: Mapping[str, str] | None = None
) -> Response:
    """The version's bytes. `conditional=False` always sends the whole content (no 304, no
    ranges): a share link counts each response as one download."""
    etag = version.sha256
    headers = download_headers(version, extra)
    headers["Accept-Ranges"] = "bytes" if conditional else "none"
    if conditional and request.if_none_match.contains_weak(etag):
        response = Response(status=304, headers=headers)
        response.set_etag(etag)
        return response

    size = version.size
    start, end, status = 0, size - 1, 200
    byte_range = request.range if conditional else None
    if (
        byte_range is not None
        and byte_range.units == "bytes"
        and len(byte_range.ranges) == 1  # several ranges: the whole content, as RFC 9110 allows
        and _if_range_allows(etag)
    ):
        bounds = byte_range.range_for_length(size)
        if bounds is None:
            raise DomainError(
                416,
                "RANGE_NOT_SATISFIABLE",
                f"The requested range is outside the content ({size} bytes).",
                headers={"Content-Range": f"bytes */{size}"},
            )
        start, end, status = bounds[0], bounds[1] - 1, 206
        headers["Content-Range"] = f"bytes {start}-{end}/{size}"

    fh = documents.open_content(version)
    response = Response(
        _stream(fh, start, end),
        status=status,
        headers=headers,
        content_type=version.content_type,
        direct_passthrough=True,
    )
    response.content_length = end - start + 1 if size > 0 else 0
    response.set_etag(etag)
    response.call_on_close(fh.close)
    return response


def _stream(fh: BinaryIO, start: int, end: int) -> Iterator[bytes]:
    # Closes the file when the body is done or abandoned, even if nobody calls close().
    try:
        if end >= start:
            yield from iter_range(fh, start, end)
    finally:
        fh.close()


def _if_range_allows(etag: str) -> bool:
    """If-Range with another validator means "send the whole new content" (RFC 9110 13.1.5)."""
    if "If-Range" not in request.headers:
        return True
    return request.if_range.etag == etag

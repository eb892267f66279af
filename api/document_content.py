"""The download response of a document version: streamed bytes with a strong ETag (the
sha256), If-None-Match → 304, single byte ranges → 206, a safe RFC 6266 Content-Disposition,
and headers that stop browsers from sniffing or rendering the content as our origin."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from typing import BinaryIO
from urllib.parse import quote

from flask import Response, request

from errors import DomainError
from models.documents import DocumentVersion
from services.documents import documents
from services.documents.storage import iter_range

_ASCII_UNSAFE = str.maketrans({'"': "_", "\\": "_", ";": "_", "%": "_"})


def content_disposition(filename: str) -> str:
    """`attachment; filename="<ASCII fallback>"; filename*=UTF-8''<percent-encoded>`."""
    folded = unicodedata.normalize("NFKD", filename).encode("ascii", "ignore").decode()
    fallback = "".join(c for c in folded if c.isprintable()).translate(_ASCII_UNSAFE).strip()
    return (
        f'attachment; filename="{fallback or "download"}"; '
        f"filename*=UTF-8''{quote(filename, safe='')}"
    )


def content_response(version: DocumentVersion) -> Response:
    etag = version.sha256
    headers = {
        "Accept-Ranges": "bytes",
        "Content-Disposition": content_disposition(version.filename),
        "X-Content-Type-Options": "nosniff",
        # Tenant data: caches may keep it only for this caller, and must revalidate (ETag).
        "Cache-Control": "private, no-cache",
        "Content-Security-Policy": "default-src 'none'; sandbox",
    }
    if request.if_none_match.contains_weak(etag):
        response = Response(status=304, headers=headers)
        response.set_etag(etag)
        return response

    size = version.size
    start, end, status = 0, size - 1, 200
    byte_range = request.range
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

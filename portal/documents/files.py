"""A document's bytes in the portal: the download (an attachment) and the inline preview of
PDFs, raster images and text, each on its own route with a policy that keeps the file from
ever acting as the portal: `default-src 'none'; sandbox`, nosniff, framable only by the
portal itself. HTML, SVG, XML and any other text are previewed as their source
(text/plain), never rendered; every other type has no preview and downloads.

The bytes come from the same service calls as the API's download (`documents.get_version`,
`documents.open_content`); ETag, If-None-Match and single ranges are werkzeug's
(`make_conditional`), as the portal may not import the API's response builder."""

from __future__ import annotations

from flask import Response, request, send_file
from werkzeug.exceptions import RequestedRangeNotSatisfiable

from errors import DomainError
from models.documents import Document, DocumentVersion
from portal.access import TENANT_ROLES, portal_tenant, roles_required
from portal.blueprint import bp
from services.documents import documents

# Rendered by the browser as themselves: formats without script (raster images) or whose
# viewer runs apart from our origin under the sandbox policy (Chromium's and Firefox's PDF
# viewers). SVG is deliberately not here: it is XML that can carry script.
INLINE_TYPES = {
    "application/pdf": "pdf",
    "image/png": "image",
    "image/jpeg": "image",
    "image/gif": "image",
    "image/webp": "image",
    "image/bmp": "image",
}
# Shown as their source text, whatever markup they hold.
SOURCE_TYPES = {
    "application/json",
    "application/xml",
    "application/javascript",
    "image/svg+xml",
}
TEXT_PREVIEW_BYTES = 1 << 20  # a text preview shows the first MiB; the download has it all

# The preview is framed by the detail page (same origin) and nothing else.
PREVIEW_CSP = "default-src 'none'; frame-ancestors 'self'; sandbox"
DOWNLOAD_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox"


def preview_kind(content_type: str) -> str | None:
    """How a type is previewed: pdf, image, text (shown as its source), or None (no
    preview: download it)."""
    content_type = content_type.lower()
    if content_type in INLINE_TYPES:
        return INLINE_TYPES[content_type]
    if content_type.startswith("text/") or content_type in SOURCE_TYPES:
        return "text"
    return None


def _version(document_id: str) -> tuple[Document, DocumentVersion]:
    document = documents.get_document(portal_tenant().id, document_id)
    number = request.args.get("version", type=int)
    if number is not None and not 1 <= number <= document.current_version:
        raise DomainError(404, "NOT_FOUND", "Document version not found.")
    return document, documents.get_version(document, number)


def _file_response(
    version: DocumentVersion, *, mimetype: str, inline: bool, policy: str
) -> Response:
    """The version's bytes with a strong ETag (its sha256), 304s and single byte ranges."""
    fh = documents.open_content(version)
    response = send_file(
        fh,
        mimetype=mimetype,
        as_attachment=not inline,
        download_name=version.filename,
        conditional=False,
        etag=version.sha256,
    )
    response.content_length = version.size
    response.headers["Content-Type"] = mimetype  # exactly this: no charset added to binaries
    try:
        response = response.make_conditional(
            request.environ, accept_ranges=True, complete_length=version.size
        )
    except RequestedRangeNotSatisfiable:
        fh.close()
        raise
    _guard(response, policy)
    return response


def _guard(response: Response, policy: str) -> None:
    response.headers["Content-Security-Policy"] = policy
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Cache-Control"] = "private, no-cache"
    response.headers["Cross-Origin-Resource-Policy"] = "same-origin"
    if "frame-ancestors 'self'" in policy:
        response.headers["X-Frame-Options"] = "SAMEORIGIN"


@bp.get("/documents/<document_id>/download")
@roles_required(*TENANT_ROLES)
def download_document(document_id: str):
    _document, version = _version(document_id)
    return _file_response(version, mimetype=version.content_type, inline=False, policy=DOWNLOAD_CSP)


@bp.get("/documents/<document_id>/preview")
@roles_required(*TENANT_ROLES)
def preview_document(document_id: str):
    _document, version = _version(document_id)
    kind = preview_kind(version.content_type)
    if kind is None:
        raise DomainError(404, "NOT_FOUND", "This type has no preview; download it instead.")
    if kind == "text":
        return _text_preview(version)
    return _file_response(version, mimetype=version.content_type, inline=True, policy=PREVIEW_CSP)


def _text_preview(version: DocumentVersion) -> Response:
    """The first TEXT_PREVIEW_BYTES as text/plain: markup shows as its source."""
    with documents.open_content(version) as fh:
        body = fh.read(TEXT_PREVIEW_BYTES)
    response = Response(body, content_type="text/plain; charset=utf-8")
    response.set_etag(version.sha256)
    response.headers["Content-Disposition"] = "inline"
    _guard(response, PREVIEW_CSP)
    return response.make_conditional(request.environ)

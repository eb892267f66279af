"""A document's thumbnail (CONTRACT §10): `GET /documents/{id}/thumbnail`, the current
version's WebP picture (at most 400 x 560 pixels) with a strong ETag (its sha256),
If-None-Match → 304, or 409 NOT_READY with Retry-After while the job is still making it.
Routes only: services/thumbnails works.

A trashed document answers as its download does (the picture, until the purge)."""

from __future__ import annotations

from typing import Any

from flask import Response, request

from api.auth import require_scope
from api.blueprint import bp
from api.openapi_components import headers_ref
from api.openapi_rules import operation
from api.validation import operation_documented
from services.documents import documents
from services.thumbnails import thumbnails
from tenancy import current_tenant

MEDIA_TYPE = "image/webp"
HEADERS = {
    "X-Content-Type-Options": "nosniff",
    # Tenant data: caches may keep it only for this caller, and must revalidate (ETag).
    "Cache-Control": "private, no-cache",
    "Content-Security-Policy": "default-src 'none'; sandbox",
}


def _responses() -> dict[str, Any]:
    webp = {MEDIA_TYPE: {"schema": {"type": "string", "format": "binary"}}}
    return {
        "200": {
            "description": "The thumbnail: WebP, at most 400 x 560 pixels, with its `ETag`.",
            "headers": headers_ref(),
            "content": webp,
        },
        "304": {"description": "Not modified (`If-None-Match` matched the ETag)."},
        # NOT_READY with Retry-After: the thumbnail is still being made.
        "409": {"$ref": "#/components/responses/E409"},
    }


@bp.get("/documents/<document_id>/thumbnail")
@require_scope("documents:read")
@operation_documented({"responses": _responses()})
@operation("getDocumentThumbnail", tag="thumbnails")
def get_document_thumbnail(document_id: str):
    """The current version's thumbnail: a PDF's first page, an image scaled, a text's first
    lines, or a type icon. Made by a job after each upload and new version; until then 409
    NOT_READY with Retry-After."""
    document = documents.get_document(current_tenant.id, document_id)
    thumbnail = thumbnails.current_thumbnail(document)
    etag = thumbnail.etag or ""
    if request.if_none_match.contains_weak(etag):
        response = Response(status=304, headers=HEADERS)
    else:
        response = Response(thumbnail.image, headers=HEADERS, content_type=MEDIA_TYPE)
    response.set_etag(etag)
    return response

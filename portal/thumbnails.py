"""Thumbnails in the portal: the Documents list's grid view (templates/portal/thumbnails/) and
the picture each card shows, served from the same service as the API's thumbnail, with the
same headers (nosniff, a sandbox policy, private caching with the ETag)."""

from __future__ import annotations

from flask import Response, request

from models.documents import Document
from portal.access import TENANT_ROLES, portal_tenant, roles_required
from portal.blueprint import bp
from services.documents import documents
from services.thumbnails import thumbnails

MEDIA_TYPE = "image/webp"
# Shown as an <img> by the portal's own pages only.
THUMBNAIL_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox"


def grid_cards(tenant_id: str, hits: list[dict]) -> list[dict]:
    """The grid's cards: each document with whether its thumbnail is ready (the others show
    a placeholder, and their jobs are on their way)."""
    page: list[Document] = [hit["document"] for hit in hits]
    ready = thumbnails.ready_ids(tenant_id, page)
    return [{"document": d, "ready": d.id in ready} for d in page]


@bp.get("/documents/<document_id>/thumbnail")
@roles_required(*TENANT_ROLES)
def document_thumbnail(document_id: str):
    document = documents.get_document(portal_tenant().id, document_id)
    thumbnail = thumbnails.current_thumbnail(document)
    response = Response(thumbnail.image, content_type=MEDIA_TYPE)
    response.set_etag(thumbnail.etag or "")
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Cache-Control"] = "private, no-cache"
    response.headers["Content-Security-Policy"] = THUMBNAIL_CSP
    response.headers["Cross-Origin-Resource-Policy"] = "same-origin"
    return response.make_conditional(request.environ)

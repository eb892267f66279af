"""Owns "similar documents": the documents nearest in meaning to one document, measured from
the mean of its passage vectors to each other document's nearest passage (cosine)."""

from __future__ import annotations

from sqlalchemy import select

import clock
from extensions import db
from models import Document
from services.documents.filters import DocumentFilters, apply_filters
from services.semantic import embedding


def similar_documents(document: Document, limit: int) -> tuple[list[tuple[Document, float]], list]:
    """Up to `limit` (document, similarity) pairs of the same tenant, nearest first, trashed
    documents left out; and the signals used (["semantic"], or [] when semantic search is off
    or the document has no vectors yet)."""
    if not embedding.active():
        return [], []
    vector = embedding.document_vector(document)
    if vector is None:
        return [], []
    near = embedding.nearest_documents(
        document.tenant_id, vector, limit, clock.now(), exclude=document.id
    )
    if not near:
        return [], ["semantic"]
    stmt = apply_filters(select(Document), document.tenant_id, DocumentFilters())
    found = {d.id: d for d in db.session.scalars(stmt.where(Document.id.in_(list(near))))}
    return [(found[i], s) for i, s in near.items() if i in found][:limit], ["semantic"]

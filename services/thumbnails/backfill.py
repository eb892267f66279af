"""The documents of every tenant that have no thumbnail of their current version: the walk of
`flask documents thumbnails` (the CLI only), for documents stored before thumbnails were made
and for jobs lost on the way."""

from __future__ import annotations

from sqlalchemy import func, select

from extensions import db
from models import Document
from models.thumbnails import DocumentThumbnail, ThumbnailStatus


def missing(tenant_id: str | None = None, after: str = "", batch: int = 500) -> list[tuple]:
    """(tenant, document, version) of up to `batch` documents after the id `after` without
    the thumbnail of their current version, in id order (the CLI walks them in batches)."""
    ready = (
        select(DocumentThumbnail.document_id)
        .where(
            DocumentThumbnail.document_id == Document.id,
            DocumentThumbnail.version_number == Document.current_version,
            DocumentThumbnail.status == ThumbnailStatus.READY.value,
        )
        .exists()
    )
    stmt = select(Document.tenant_id, Document.id, Document.current_version).where(
        ~ready, Document.id > after
    )
    if tenant_id is not None:
        stmt = stmt.where(Document.tenant_id == tenant_id)
    return [tuple(r) for r in db.session.execute(stmt.order_by(Document.id).limit(batch))]


def count_missing(tenant_id: str | None = None) -> int:
    """How many documents `missing` walks over (the progress bar's total)."""
    ready = (
        select(DocumentThumbnail.document_id)
        .where(
            DocumentThumbnail.document_id == Document.id,
            DocumentThumbnail.version_number == Document.current_version,
            DocumentThumbnail.status == ThumbnailStatus.READY.value,
        )
        .exists()
    )
    stmt = select(func.count()).select_from(Document).where(~ready)
    if tenant_id is not None:
        stmt = stmt.where(Document.tenant_id == tenant_id)
    return db.session.scalar(stmt) or 0

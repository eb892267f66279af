"""Owns emptying the trash: documents deleted longer ago than the retention are removed for
good, with their versions, tags and every blob no other row still needs (search drops its
text and index entry on the `document_purged` signal)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from flask import current_app
from sqlalchemy import select

import clock
from extensions import db
from models import Document, DocumentStatus
from services.audit import audit_log
from services.core import signals
from services.core.actors import Actor
from services.documents.blobs import delete_if_unused

log = logging.getLogger(__name__)

BATCH_SIZE = 200
PURGE_ACTOR = Actor.system("trash purge")


@dataclass
class PurgeReport:
    documents: int = 0
    blobs_deleted: int = 0
    blobs_kept: int = 0

    def as_dict(self) -> dict[str, int]:
        return {
            "documents": self.documents,
            "blobsDeleted": self.blobs_deleted,
            "blobsKept": self.blobs_kept,
        }


def retention() -> timedelta:
    return timedelta(days=current_app.config.get("DMS_TRASH_RETENTION_DAYS", 30))


def purge_trash(now: datetime | None = None, tenant_id: str | None = None) -> PurgeReport:
    """Purge every document trashed before `now - retention`, in committed batches."""
    cutoff = (now or clock.now()) - retention()
    report = PurgeReport()
    while True:
        stmt = select(Document).where(
            Document.status == DocumentStatus.DELETED.value,
            Document.deleted_at.is_not(None),
            Document.deleted_at < cutoff,
        )
        if tenant_id is not None:
            stmt = stmt.where(Document.tenant_id == tenant_id)
        batch = list(db.session.scalars(stmt.order_by(Document.id).limit(BATCH_SIZE)))
        if not batch:
            return report
        blobs: set[tuple[str, str]] = set()
        for document in batch:
            blobs |= _purge_document(document)
        db.session.commit()  # a batch at a time: a crash keeps the batches already done
        report.documents += len(batch)
        # After the commit: a blob goes only once no remaining row of its tenant names it.
        for owner, sha256 in sorted(blobs):
            if delete_if_unused(owner, sha256):
                report.blobs_deleted += 1
            else:
                report.blobs_kept += 1
        log.info("purged trashed documents", extra=report.as_dict())


def _purge_document(document: Document) -> set[tuple[str, str]]:
    blobs = {(document.tenant_id, document.sha256)}
    blobs |= {(document.tenant_id, v.sha256) for v in document.versions}
    signals.document_purged.send(document.id, tenant_id=document.tenant_id)
    audit_log.record(
        document.tenant_id,
        PURGE_ACTOR,
        "document.purged",
        target_type="document",
        target_id=document.id,
        details={"title": document.title, "deletedAt": clock.rfc3339(document.deleted_at)},
    )
    db.session.delete(document)  # versions and tags go with it (ORM and FK cascades)
    db.session.flush()
    return blobs

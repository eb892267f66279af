"""How the graph keeps mentions in step with documents: a document whose extracted text was
stored is rescanned by a job after the commit; a purged document's mentions go, and the
counts of the entities it mentioned follow, in the purge's unit of work."""

from __future__ import annotations

from sqlalchemy import delete, select

from extensions import db
from models import Document, EntityMention
from models.base import in_tenant
from services.core import signals
from services.graph import mentions


def connect() -> None:
    """Subscribe the receivers below (idempotent: blinker keeps one connection per receiver)."""
    signals.document_text_changed.connect(_text_changed)
    signals.document_purged.connect(_purged)


def _text_changed(document: Document, **_) -> None:
    # The documents of one unit of work (an extraction job's batch) are scanned together.
    mentions.schedule_scan_of(document.tenant_id, document.id)


def _purged(document_id: str, *, tenant_id: str, **_) -> None:
    entity_ids = list(
        db.session.scalars(
            select(EntityMention.entity_id).where(
                EntityMention.document_id == document_id, in_tenant(EntityMention, tenant_id)
            )
        )
    )
    db.session.execute(delete(EntityMention).where(EntityMention.document_id == document_id))
    mentions.recount(entity_ids)

"""How search keeps its index in step with documents: receivers of the documents capability's
signals (services/core/signals.py), connected once by create_app."""

from __future__ import annotations

from extensions import db
from models import Document
from services.core import signals, transaction
from services.search import extraction_runs, indexing

_SEARCHABLE_FIELDS = {"title", "tags", "metadata"}


def connect() -> None:
    """Subscribe the receivers below (idempotent: blinker keeps one connection per receiver)."""
    signals.document_content_changed.connect(_content_changed)
    signals.document_fields_changed.connect(_fields_changed)
    signals.document_purged.connect(_purged)
    signals.document_notes_changed.connect(_notes_changed)


def _content_changed(document: Document, **_) -> None:
    # Once the content is committed: the extraction job reads the committed rows. The
    # documents of one unit of work (a folder import's batch) are scheduled together.
    transaction.after_commit_collect("search.extract", document, _schedule)


def _schedule(documents: list[Document]) -> None:
    # The documents are committed; a failure to enqueue must not turn the upload into an error
    # (the text stays pending and `flask documents reindex` or the sweep picks it up).
    try:
        extraction_runs.schedule_extractions(documents)
    except Exception:
        db.session.rollback()
        indexing.log.exception(
            "text extraction not scheduled", extra={"document_ids": [d.id for d in documents]}
        )


def _fields_changed(document: Document, *, changed: list[str], **_) -> None:
    if _SEARCHABLE_FIELDS & set(changed):
        indexing.refresh(document)  # in the same transaction as the change


def _notes_changed(document: Document, **_) -> None:
    indexing.refresh(document)  # in the same transaction as the note


def _purged(document_id: str, *, tenant_id: str, **_) -> None:
    indexing.remove(tenant_id, document_id)

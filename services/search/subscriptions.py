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


def _content_changed(document: Document, *, new: bool = False, **_) -> None:
    # Pending in the unit of work that stores the content; enqueued once it has committed (the
    # job reads the committed rows), the documents of one unit of work (a folder import's
    # batch) together.
    indexing.mark_pending(document, new=new)
    call = (document.tenant_id, document.id, document.current_version)
    transaction.after_commit_collect("search.extract", call, _schedule)


def _schedule(calls: list[tuple[str, str, int]]) -> None:
    # The documents are committed; a failure to enqueue must not turn the upload into an error
    # (the text stays pending and the recovery sweep or `flask documents reindex` picks it up).
    try:
        extraction_runs.enqueue_extractions(calls)
    except Exception:
        db.session.rollback()
        indexing.log.exception(
            "text extraction not scheduled", extra={"document_ids": [c[1] for c in calls]}
        )


def _fields_changed(document: Document, *, changed: list[str], **_) -> None:
    if _SEARCHABLE_FIELDS & set(changed):
        indexing.refresh(document)  # in the same transaction as the change


def _notes_changed(document: Document, **_) -> None:
    indexing.refresh(document)  # in the same transaction as the note


def _purged(document_id: str, *, tenant_id: str, **_) -> None:
    indexing.remove(tenant_id, document_id)

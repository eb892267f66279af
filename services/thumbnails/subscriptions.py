"""How thumbnails follow documents: a receiver of the documents capability's signal
(services/core/signals.py), connected once by create_app."""

from __future__ import annotations

from models import Document
from services.core import signals, transaction
from services.thumbnails import thumbnails


def connect() -> None:
    """Subscribe the receiver below (idempotent: blinker keeps one connection per receiver)."""
    signals.document_content_changed.connect(_content_changed)


def _content_changed(document: Document, **_) -> None:
    # Once the content is committed: the job reads the committed rows; the documents of one
    # unit of work (a folder import's batch) share jobs. A failure to enqueue is logged; the
    # next request for the thumbnail enqueues it again.
    call = (document.tenant_id, document.id, document.current_version)
    transaction.after_commit_collect("thumbnails.make", call, thumbnails.schedule_new_content)

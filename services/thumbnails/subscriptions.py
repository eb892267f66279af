"""How thumbnails follow documents: a receiver of the documents capability's signal
(services/core/signals.py), connected once by create_app."""

from __future__ import annotations

from functools import partial

from models import Document
from services.core import signals, transaction
from services.thumbnails import thumbnails


def connect() -> None:
    """Subscribe the receiver below (idempotent: blinker keeps one connection per receiver)."""
    signals.document_content_changed.connect(_content_changed)


def _content_changed(document: Document, **_) -> None:
    # Once the content is committed: the job reads the committed rows. A failure to enqueue
    # is logged; the next request for the thumbnail enqueues it again.
    transaction.after_commit(
        partial(thumbnails.schedule, document.tenant_id, document.id, document.current_version)
    )

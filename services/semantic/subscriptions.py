"""How semantic vectors follow documents: receivers of the documents capability's signals
(services/core/signals.py), connected once by create_app. Passages cascade with their document
on PostgreSQL, and pgvector's rows with them; sqlite-vec's tables have no foreign keys."""

from __future__ import annotations

from services.core import signals
from services.semantic import embedding


def connect() -> None:
    signals.document_purged.connect(_purged)


def _purged(document_id: str, **_) -> None:
    embedding.forget(document_id)

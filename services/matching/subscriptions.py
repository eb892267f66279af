"""How matching follows extraction: once a document's text is stored (a new document or a
new version), its tenant's rules run on it in a follow-up job (services/matching/runner.py)."""

from __future__ import annotations

from models import Document
from services.core import signals
from services.matching import runner


def connect() -> None:
    """Subscribe the receiver below (idempotent: blinker keeps one connection per receiver)."""
    signals.document_text_changed.connect(_text_changed)


def _text_changed(document: Document, **_) -> None:
    runner.schedule(document)

"""A document's extracted text and the record of its extraction job (STYLE practice 8).

The search index itself lives beside it: a `search_vector` tsvector column on this table on
PostgreSQL, the `document_search` FTS5 table on SQLite (both created by migration 0003 and kept
in step by services/text_index.py, never mapped here so one model serves both engines)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from extensions import db
from models.base import UTCDateTime, created_at_column


class DocumentText(db.Model):
    __tablename__ = "document_texts"

    document_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("documents.id", ondelete="CASCADE"), primary_key=True
    )
    tenant_id: Mapped[str] = mapped_column(
        String(63), ForeignKey("tenants.id", ondelete="CASCADE"), index=True, nullable=False
    )
    text: Mapped[str] = mapped_column(Text, nullable=False, default="")
    # The content version the text was taken from (a newer upload makes it stale).
    version_number: Mapped[int | None] = mapped_column(Integer)
    # The extraction job: Redis carries it, these columns remember it.
    job_id: Mapped[str | None] = mapped_column(String(60))
    attempts: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    error: Mapped[str | None] = mapped_column(String(300))
    enqueued_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    updated_at: Mapped[datetime] = created_at_column()

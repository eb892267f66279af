"""What search reads besides the index: a document's extracted text with the record of its
extraction job, and its passages (pieces of about 200-400 words on paragraph and sentence
boundaries, services/search/passages.py) that search highlights, semantic vectors embed and the
copilot cites.

The index itself lives beside the text: a `search_vector` tsvector column on `document_texts` on
PostgreSQL, the `document_search` FTS5 table on SQLite (migration 0003, kept in step by
services/search/indexing.py and never mapped here, so one model serves both engines).
A passage's `start_char`/`end_char` are offsets into `document_texts.text` in code points:
text[start_char:end_char] == passage.text. Passages are replaced whenever the text is."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from extensions import db
from models.base import TenantScoped, UTCDateTime, created_at_column, id_column


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


class Passage(TenantScoped, db.Model):
    __tablename__ = "passages"
    __not_found_label__ = "Passage"
    __table_args__ = (
        UniqueConstraint("document_id", "ordinal"),
        Index("ix_passages_tenant_document", "tenant_id", "document_id"),
    )

    id: Mapped[str] = id_column("psg")
    document_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("documents.id", ondelete="CASCADE"), nullable=False
    )
    # The content version whose text was split (document_texts.version_number).
    version_number: Mapped[int | None] = mapped_column(Integer)
    # 0, 1, 2, ... in the order of the text.
    ordinal: Mapped[int] = mapped_column(Integer, nullable=False)
    start_char: Mapped[int] = mapped_column(Integer, nullable=False)
    end_char: Mapped[int] = mapped_column(Integer, nullable=False)
    word_count: Mapped[int] = mapped_column(Integer, nullable=False)
    text: Mapped[str] = mapped_column(Text, nullable=False)

    def __repr__(self) -> str:
        return f"<Passage {self.document_id}#{self.ordinal} {self.start_char}:{self.end_char}>"

"""Passages: a document's extracted text cut into pieces of about 200-400 words on paragraph
and sentence boundaries (services/search/passages.py). Search highlights them, semantic
vectors are computed for them and the copilot cites them.

`start_char`/`end_char` are offsets into `document_texts.text` in Unicode code points (Python
string indices): text[start_char:end_char] == passage.text. The rows are replaced whenever
the document's text is (a new version extracted, a failure) and go with the document."""

from __future__ import annotations

from sqlalchemy import ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from extensions import db
from models.base import TenantScoped, id_column


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

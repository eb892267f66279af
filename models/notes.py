"""Notes on documents: plain text written by a person or an API key, with the people of the
tenant it mentions (`@email`), listed newest first with the document and searched with it
(docs/notes.md)."""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import JSON, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from extensions import db
from models.base import TenantScoped, created_at_column, id_column

MAX_NOTE_CHARS = 10_000


class AuthorType(enum.StrEnum):
    USER = "user"
    API_KEY = "api_key"


class Note(TenantScoped, db.Model):
    __tablename__ = "notes"
    __not_found_label__ = "Note"
    __table_args__ = (
        # A document's notes, newest first (ids sort by creation time).
        Index("ix_notes_document", "document_id", "id"),
    )

    id: Mapped[str] = id_column("not")
    # Purging the document deletes its notes (the database's cascade, on both engines).
    document_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("documents.id", ondelete="CASCADE"), nullable=False
    )
    body: Mapped[str] = mapped_column(Text, nullable=False)
    # Who wrote it, as it was then: no foreign key, so a key revoked or a person removed later
    # leaves the note readable, and the tenant archive carries it without its credentials.
    author_type: Mapped[str] = mapped_column(String(16), nullable=False)
    author_id: Mapped[str] = mapped_column(String(60), nullable=False)
    author_email: Mapped[str | None] = mapped_column(String(254))
    author_name: Mapped[str | None] = mapped_column(String(200))
    # The ids of the tenant's users the body mentions, in the order they appear.
    mentions: Mapped[list[str]] = mapped_column(JSON, nullable=False, default=list)
    created_at: Mapped[datetime] = created_at_column()

    def __repr__(self) -> str:
        return f"<Note {self.id} on {self.document_id}>"

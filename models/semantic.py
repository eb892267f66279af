"""The semantic vectors' bookkeeping per document (services/semantic/embedding.py): which model
embedded its passages, when, and how the last attempt went. The vectors themselves live in the
database's vector engine (pgvector's `passage_vectors`, sqlite-vec's `passage_vectors_d<N>`),
one per passage, and go with their passages."""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from extensions import db
from models.base import UTCDateTime, created_at_column


class EmbeddingStatus(enum.StrEnum):
    PENDING = "pending"  # waiting for (or in) the embedding job
    DONE = "done"  # every passage has a vector from `model`
    FAILED = "failed"  # the endpoint refused or kept failing; `error` says why


class DocumentEmbedding(db.Model):
    __tablename__ = "document_embeddings"
    __table_args__ = (Index("ix_document_embeddings_status", "status", "model"),)

    document_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("documents.id", ondelete="CASCADE"), primary_key=True
    )
    tenant_id: Mapped[str] = mapped_column(
        String(63), ForeignKey("tenants.id", ondelete="CASCADE"), index=True, nullable=False
    )
    status: Mapped[str] = mapped_column(
        String(20), nullable=False, default=EmbeddingStatus.PENDING.value
    )
    # "openai:<model>" or "local:<model>": vectors of another model are not compared.
    model: Mapped[str | None] = mapped_column(String(200))
    dimensions: Mapped[int | None] = mapped_column(Integer)
    passages: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    attempts: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    error: Mapped[str | None] = mapped_column(String(300))
    job_id: Mapped[str | None] = mapped_column(String(80))
    embedded_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    updated_at: Mapped[datetime] = created_at_column()

"""Idempotency records (CONTRACT §6): one row per tenant and Idempotency-Key, holding the
request's fingerprint and, once the first request finished, the response to replay."""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import JSON, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from extensions import db
from models.base import TenantScoped, UTCDateTime, created_at_column, id_column


class IdempotencyState(enum.StrEnum):
    IN_PROGRESS = "in_progress"  # the first request holds the key and is still running
    COMPLETED = "completed"  # the response below is replayed for the same request


class IdempotencyRecord(TenantScoped, db.Model):
    __tablename__ = "idempotency_records"
    __table_args__ = (
        # The unique pair is what makes N concurrent requests with one key create one resource.
        UniqueConstraint("tenant_id", "key"),
        Index("ix_idempotency_records_expires_at", "expires_at"),
    )
    __not_found_label__ = "Idempotency record"

    id: Mapped[str] = id_column("idk")
    key: Mapped[str] = mapped_column(String(255), nullable=False)
    method: Mapped[str] = mapped_column(String(10), nullable=False)
    path: Mapped[str] = mapped_column(String(500), nullable=False)
    state: Mapped[str] = mapped_column(
        String(20), nullable=False, default=IdempotencyState.IN_PROGRESS.value
    )
    # sha256 of what makes two requests "the same"; set when the first request completes.
    fingerprint: Mapped[str | None] = mapped_column(String(64))
    response_status: Mapped[int | None] = mapped_column(Integer)
    response_headers: Mapped[dict[str, str] | None] = mapped_column(JSON)
    response_body: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = created_at_column()
    # In progress: when the holder is presumed dead; completed: created_at + 24 hours.
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)

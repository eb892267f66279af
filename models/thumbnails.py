"""A document's thumbnail: the small WebP picture of its current version (a PDF's first page,
an image scaled, the first lines of a text, or a type icon), made by a job after each upload
and new version (services/thumbnails/), with the record of that job. One row per document;
a new version makes the row pending again until its own picture is made."""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import ForeignKey, Integer, LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column

from extensions import db
from models.base import UTCDateTime, created_at_column


class ThumbnailStatus(enum.StrEnum):
    PENDING = "pending"  # the job is queued or running: the API answers 409 NOT_READY
    READY = "ready"  # `image` holds the picture (a type icon when rendering failed: `error`)


class DocumentThumbnail(db.Model):
    __tablename__ = "document_thumbnails"

    document_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("documents.id", ondelete="CASCADE"), primary_key=True
    )
    tenant_id: Mapped[str] = mapped_column(
        String(63), ForeignKey("tenants.id", ondelete="CASCADE"), index=True, nullable=False
    )
    # The content version the picture is (to be) made from.
    version_number: Mapped[int] = mapped_column(Integer, nullable=False)
    status: Mapped[str] = mapped_column(
        String(20), nullable=False, default=ThumbnailStatus.PENDING.value
    )
    # What the picture shows: page, image, text or icon.
    kind: Mapped[str | None] = mapped_column(String(20))
    image: Mapped[bytes | None] = mapped_column(LargeBinary)
    # The picture's sha256: its ETag.
    etag: Mapped[str | None] = mapped_column(String(64))
    width: Mapped[int | None] = mapped_column(Integer)
    height: Mapped[int | None] = mapped_column(Integer)
    # Why the picture is a type icon rather than the content (a budget, a damaged file).
    error: Mapped[str | None] = mapped_column(String(300))
    # The job: Redis carries it, these columns remember it.
    job_id: Mapped[str | None] = mapped_column(String(100))
    attempts: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    enqueued_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    updated_at: Mapped[datetime] = created_at_column()

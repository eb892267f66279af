"""Share links: an expiring, revocable address (`/s/<token>`) that downloads one document
(its current version, or one pinned version) without signing in, and the tenant's switch
that turns them off (docs/sharing.md). Only the token's digest is stored."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from extensions import db
from models.base import TenantScoped, UTCDateTime, created_at_column, id_column


class ShareLink(TenantScoped, db.Model):
    __tablename__ = "share_links"
    __not_found_label__ = "Share link"
    __table_args__ = (Index("ix_share_links_document", "document_id", "id"),)

    id: Mapped[str] = id_column("shl")
    document_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("documents.id", ondelete="CASCADE"), nullable=False
    )
    # A pinned version number; None follows the document's current version.
    version: Mapped[int | None] = mapped_column(Integer)
    # SHA-256 (hex) of the token: the token itself is shown once and never stored.
    token_digest: Mapped[str] = mapped_column(String(64), nullable=False, unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(255))  # Argon2id
    max_downloads: Mapped[int | None] = mapped_column(Integer)
    downloads: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    revoked_by: Mapped[str | None] = mapped_column(String(60))
    last_downloaded_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    created_by: Mapped[str | None] = mapped_column(String(60))
    created_at: Mapped[datetime] = created_at_column()

    def __repr__(self) -> str:
        return f"<ShareLink {self.id} of {self.document_id}>"


class SharingSettings(db.Model):
    """A tenant's share-link switch; a tenant without a row has share links on."""

    __tablename__ = "sharing_settings"

    tenant_id: Mapped[str] = mapped_column(
        String(63), ForeignKey("tenants.id", ondelete="CASCADE"), primary_key=True
    )
    share_links_enabled: Mapped[bool] = mapped_column(Boolean, nullable=False, default=True)
    updated_by: Mapped[str | None] = mapped_column(String(60))
    updated_at: Mapped[datetime] = created_at_column()

"""Documents, their content versions, and their tags."""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    false,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from extensions import db
from models.base import TenantScoped, UTCDateTime, created_at_column, id_column


class DocumentStatus(enum.StrEnum):
    ACTIVE = "active"
    ARCHIVED = "archived"
    DELETED = "deleted"  # in the trash; restorable until the purge job removes it


class TextStatus(enum.StrEnum):
    PENDING = "pending"
    DONE = "done"
    FAILED = "failed"
    UNSUPPORTED = "unsupported"


class SourceType(enum.StrEnum):
    """How a document came in (its `source.type`)."""

    API = "api"
    PORTAL = "portal"
    MAIL = "mail"
    FOLDER = "folder"
    FORM = "form"
    IMPORT = "import"


class Document(TenantScoped, db.Model):
    __tablename__ = "documents"
    __not_found_label__ = "Document"
    __table_args__ = (
        # Keyset pagination for each sort order, inside a tenant.
        Index("ix_documents_tenant_created", "tenant_id", "created_at", "id"),
        Index("ix_documents_tenant_updated", "tenant_id", "updated_at", "id"),
        Index("ix_documents_tenant_title", "tenant_id", "title", "id"),
        Index("ix_documents_tenant_status_created", "tenant_id", "status", "created_at", "id"),
        # The same content in a tenant: the portal's duplicate check and blob clean-up.
        Index("ix_documents_tenant_sha256", "tenant_id", "sha256"),
    )

    id: Mapped[str] = id_column("doc")
    title: Mapped[str] = mapped_column(String(500), nullable=False)
    filename: Mapped[str] = mapped_column(String(500), nullable=False)
    content_type: Mapped[str] = mapped_column(String(200), nullable=False)
    size: Mapped[int] = mapped_column(BigInteger, nullable=False)
    sha256: Mapped[str] = mapped_column(String(64), nullable=False)
    status: Mapped[str] = mapped_column(
        String(20), nullable=False, default=DocumentStatus.ACTIVE.value
    )
    # `metadata` is reserved on declarative classes, hence the attribute name.
    meta: Mapped[dict[str, str]] = mapped_column("metadata", JSON, nullable=False, default=dict)
    text_status: Mapped[str] = mapped_column(
        String(20), nullable=False, default=TextStatus.PENDING.value
    )
    # Why extraction failed (`limit_exceeded: …`), and whether the text was cut at the budget.
    text_error: Mapped[str | None] = mapped_column(String(300))
    text_truncated: Mapped[bool] = mapped_column(
        Boolean, nullable=False, default=False, server_default=false()
    )
    current_version: Mapped[int] = mapped_column(Integer, nullable=False, default=1)
    # Where it came from: {"type": SourceType, ...what that way in knows (a form's id, a mail
    # message's, a folder's path)}; rows from before it existed came through the API.
    source: Mapped[dict[str, str]] = mapped_column(
        JSON, nullable=False, server_default=text('\'{"type": "api"}\'')
    )
    created_by: Mapped[str | None] = mapped_column(String(60))
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = created_at_column()
    deleted_at: Mapped[datetime | None] = mapped_column(UTCDateTime())

    tags: Mapped[list[DocumentTag]] = relationship(
        back_populates="document",
        cascade="all, delete-orphan",
        lazy="selectin",
        order_by="DocumentTag.tag",
    )
    versions: Mapped[list[DocumentVersion]] = relationship(
        back_populates="document",
        cascade="all, delete-orphan",
        order_by="DocumentVersion.number",
    )

    @property
    def tag_names(self) -> list[str]:
        return [t.tag for t in self.tags]


class DocumentTag(db.Model):
    """One row per tag, so "all of these tags" filters are indexed EXISTS queries on both
    SQLite and PostgreSQL."""

    __tablename__ = "document_tags"
    __table_args__ = (Index("ix_document_tags_tenant_tag", "tenant_id", "tag", "document_id"),)

    document_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("documents.id", ondelete="CASCADE"), primary_key=True
    )
    tag: Mapped[str] = mapped_column(String(100), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(String(63), nullable=False)

    document: Mapped[Document] = relationship(back_populates="tags")


class DocumentVersion(TenantScoped, db.Model):
    """Each upload of new content; the document row mirrors its current version."""

    __tablename__ = "document_versions"
    __table_args__ = (
        UniqueConstraint("document_id", "number"),
        # Content lookups: the folder import's "already stored", a blob's "still in use".
        Index("ix_document_versions_tenant_sha256", "tenant_id", "sha256"),
    )
    __not_found_label__ = "Document version"

    id: Mapped[str] = id_column("dver")
    document_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("documents.id", ondelete="CASCADE"), nullable=False, index=True
    )
    number: Mapped[int] = mapped_column(Integer, nullable=False)
    filename: Mapped[str] = mapped_column(String(500), nullable=False)
    content_type: Mapped[str] = mapped_column(String(200), nullable=False)
    size: Mapped[int] = mapped_column(BigInteger, nullable=False)
    sha256: Mapped[str] = mapped_column(String(64), nullable=False)
    created_by: Mapped[str | None] = mapped_column(String(60))
    created_at: Mapped[datetime] = created_at_column()

    document: Mapped[Document] = relationship(back_populates="versions")

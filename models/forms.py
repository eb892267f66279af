"""eForms: a form (a JSON Schema of fields), the schema of every version that was ever live,
and the submissions, each recording the version it answered (docs/forms.md)."""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

import clock
from extensions import db
from models.base import TenantScoped, UTCDateTime, created_at_column, id_column


class FormStatus(enum.StrEnum):
    DRAFT = "draft"  # editable; takes no submissions
    PUBLISHED = "published"  # takes submissions (and is shown publicly when `public`)
    ARCHIVED = "archived"  # closed; its submissions stay readable; may be published again


class Form(TenantScoped, db.Model):
    __tablename__ = "forms"
    __not_found_label__ = "Form"

    id: Mapped[str] = id_column("frm")
    name: Mapped[str] = mapped_column(String(200), nullable=False)
    description: Mapped[str | None] = mapped_column(String(2000))
    # The current schema; the schemas of versions that were live are in form_versions.
    schema: Mapped[dict[str, Any]] = mapped_column(JSON, nullable=False)
    status: Mapped[str] = mapped_column(String(16), nullable=False, default=FormStatus.DRAFT.value)
    version: Mapped[int] = mapped_column(Integer, nullable=False, default=1)
    workflow_definition_id: Mapped[str | None] = mapped_column(
        String(40), ForeignKey("workflow_definitions.id", ondelete="SET NULL"), index=True
    )
    public: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    created_by: Mapped[str | None] = mapped_column(String(60))
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = mapped_column(
        UTCDateTime(), default=clock.now, onupdate=clock.now, nullable=False
    )

    def __repr__(self) -> str:
        return f"<Form {self.id} v{self.version} {self.status}>"


class FormVersion(db.Model):
    """The schema of one version of a form, written when that version goes live, so every
    submission can be read against the schema it answered."""

    __tablename__ = "form_versions"
    __table_args__ = (UniqueConstraint("form_id", "version"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    form_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("forms.id", ondelete="CASCADE"), nullable=False
    )
    version: Mapped[int] = mapped_column(Integer, nullable=False)
    schema: Mapped[dict[str, Any]] = mapped_column(JSON, nullable=False)
    created_at: Mapped[datetime] = created_at_column()


class FormSubmission(TenantScoped, db.Model):
    __tablename__ = "form_submissions"
    __not_found_label__ = "Submission"
    __table_args__ = (Index("ix_form_submissions_form", "form_id", "id"),)

    id: Mapped[str] = id_column("sub")
    form_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("forms.id", ondelete="CASCADE"), nullable=False
    )
    form_version: Mapped[int] = mapped_column(Integer, nullable=False)
    data: Mapped[dict[str, Any]] = mapped_column(JSON, nullable=False)
    # The actor's ref (a key or user id), or "public" for the public form page.
    submitted_by: Mapped[str] = mapped_column(String(60), nullable=False)
    document_ids: Mapped[list[str]] = mapped_column(JSON, nullable=False, default=list)
    workflow_instance_id: Mapped[str | None] = mapped_column(
        String(40), ForeignKey("workflow_instances.id", ondelete="SET NULL")
    )
    created_at: Mapped[datetime] = created_at_column()

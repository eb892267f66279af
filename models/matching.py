"""Matching rules (`mrl_…`): what to look for in a document (an algorithm over its text,
title or file name) and what to do when it is found (tags, metadata, custom fields, a
workflow), run in order after each extraction; and each tenant's tag classifier, the model
the `auto` rules and the suggestions read (docs/matching.md)."""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Float,
    Index,
    Integer,
    LargeBinary,
    String,
    UniqueConstraint,
    true,
)
from sqlalchemy.orm import Mapped, mapped_column

from extensions import db
from models.base import TenantScoped, UTCDateTime, created_at_column, id_column


class Algorithm(enum.StrEnum):
    ANY = "any"
    ALL = "all"
    EXACT = "exact"
    REGEX = "regex"
    FUZZY = "fuzzy"
    AUTO = "auto"


class MatchField(enum.StrEnum):
    CONTENT = "content"
    TITLE = "title"
    FILENAME = "filename"


class MatchingRule(TenantScoped, db.Model):
    __tablename__ = "matching_rules"
    __table_args__ = (Index("ix_matching_rules_tenant_order", "tenant_id", "order", "id"),)
    __not_found_label__ = "Matching rule"

    id: Mapped[str] = id_column("mrl")
    name: Mapped[str] = mapped_column(String(128), nullable=False)
    enabled: Mapped[bool] = mapped_column(
        Boolean, nullable=False, default=True, server_default=true()
    )
    # Lower runs first; equal orders run by id (the order they were made in).
    order: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    algorithm: Mapped[str] = mapped_column(String(10), nullable=False)
    pattern: Mapped[str] = mapped_column(String(1000), nullable=False, default="")
    case_sensitive: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    match_in: Mapped[str] = mapped_column(String(10), nullable=False, default="content")
    # {"addTags": [...], "setMetadata": {...}, "setCustomFields": {...}, "startWorkflow": id}
    # as checked at save (custom field ids and the workflow definition are the tenant's).
    actions: Mapped[dict[str, Any]] = mapped_column(JSON, nullable=False, default=dict)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = created_at_column()

    def __repr__(self) -> str:
        return f"<MatchingRule {self.id} {self.name!r}>"


class TagClassifier(TenantScoped, db.Model):
    """A tenant's fitted tag classifier: one row per tenant, replaced by each training. The
    model is `model` (services/matching/classifier.py's format: numpy arrays in an .npz
    archive, read without pickle), never read for another tenant."""

    __tablename__ = "tag_classifiers"
    __table_args__ = (UniqueConstraint("tenant_id"),)
    __not_found_label__ = "Tag classifier"

    id: Mapped[str] = id_column("tcl")
    # The tags the model scores, in the order of its rows.
    tags: Mapped[list[str]] = mapped_column(JSON, nullable=False, default=list)
    model: Mapped[bytes] = mapped_column(LargeBinary, nullable=False)
    documents: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    # The newest `updated_at` of the documents it learned from: documents changed after it
    # count towards the next training (services/matching/training.py).
    trained_until: Mapped[datetime | None] = mapped_column(UTCDateTime())
    trained_at: Mapped[datetime] = created_at_column()
    seconds: Mapped[float] = mapped_column(Float, nullable=False, default=0.0)

    def __repr__(self) -> str:
        return f"<TagClassifier {self.tenant_id} {len(self.tags)} tags>"

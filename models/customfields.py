"""Custom fields: a tenant's typed fields (docs/customfields.md) and the documents' values,
one row per document and field, with a typed column per kind of value so that a filter on
one field walks an index of (tenant, field, value, document)."""

from __future__ import annotations

import enum
import json
from datetime import date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Date,
    Float,
    ForeignKey,
    Index,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

import clock
from extensions import db
from models.base import TenantScoped, UTCDateTime, created_at_column, id_column


class CustomFieldType(enum.StrEnum):
    STRING = "string"
    INTEGER = "integer"
    NUMBER = "number"
    MONETARY = "monetary"
    BOOLEAN = "boolean"
    DATE = "date"
    SELECT = "select"
    DOCUMENT_LINK = "documentLink"


class CustomField(TenantScoped, db.Model):
    __tablename__ = "custom_fields"
    __not_found_label__ = "Custom field"
    # Names are unique per tenant without regard to case: name_key is the casefolded name.
    __table_args__ = (UniqueConstraint("tenant_id", "name_key"),)

    id: Mapped[str] = id_column("cfd")
    name: Mapped[str] = mapped_column(String(128), nullable=False)
    name_key: Mapped[str] = mapped_column(String(128), nullable=False)
    data_type: Mapped[str] = mapped_column(String(16), nullable=False)
    # select only: [{"id": "opt_…", "label": "…"}]; an option keeps its id when relabelled.
    options: Mapped[list[dict[str, str]]] = mapped_column(JSON, nullable=False, default=list)
    created_by: Mapped[str | None] = mapped_column(String(60))
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = mapped_column(
        UTCDateTime(), default=clock.now, onupdate=clock.now, nullable=False
    )


class CustomFieldValue(db.Model):
    """A document's value of one field. `value_json` is the value exactly as the API answers
    it (what every reader shows); the typed columns are what filters compare: string and
    select in value_text, integer in value_int, number and a monetary amount in value_num
    (a monetary currency in value_text), date in value_date, boolean in value_bool. A
    documentLink's ids are only in value_json."""

    __tablename__ = "custom_field_values"
    __table_args__ = (
        Index("ix_custom_field_values_text", "tenant_id", "field_id", "value_text", "document_id"),
        Index("ix_custom_field_values_int", "tenant_id", "field_id", "value_int", "document_id"),
        Index("ix_custom_field_values_num", "tenant_id", "field_id", "value_num", "document_id"),
        Index("ix_custom_field_values_date", "tenant_id", "field_id", "value_date", "document_id"),
    )

    document_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("documents.id", ondelete="CASCADE"), primary_key=True
    )
    field_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("custom_fields.id", ondelete="CASCADE"), primary_key=True
    )
    tenant_id: Mapped[str] = mapped_column(String(63), nullable=False)
    value_json: Mapped[str] = mapped_column(Text, nullable=False)
    value_text: Mapped[str | None] = mapped_column(String(500))
    value_int: Mapped[int | None] = mapped_column(BigInteger)
    value_num: Mapped[float | None] = mapped_column(Float)
    value_date: Mapped[date | None] = mapped_column(Date)
    value_bool: Mapped[bool | None] = mapped_column(Boolean)

    @property
    def value(self) -> Any:
        return json.loads(self.value_json)

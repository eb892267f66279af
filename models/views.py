"""Saved views of the documents list: a named set of the list's filters, a sort and the
columns to show, personal to whoever saved it or shared with the whole tenant
(docs/views.md)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, String, false
from sqlalchemy.orm import Mapped, mapped_column

from extensions import db
from models.base import TenantScoped, created_at_column, id_column


class SavedView(TenantScoped, db.Model):
    __tablename__ = "saved_views"
    __not_found_label__ = "Saved view"

    id: Mapped[str] = id_column("svw")
    name: Mapped[str] = mapped_column(String(100), nullable=False)
    # The documents list's query parameters, as validated and normalised at save.
    filters: Mapped[dict[str, Any]] = mapped_column(JSON, nullable=False, default=dict)
    sort: Mapped[str] = mapped_column(String(20), nullable=False)
    columns: Mapped[list[str]] = mapped_column(JSON, nullable=False, default=list)
    shared: Mapped[bool] = mapped_column(
        Boolean, nullable=False, default=False, server_default=false()
    )
    # Who saved it: a person (usr_…) or an API key (key_…). No foreign key, so the view
    # outlives a revoked key, and the tenant archive carries it without its credentials.
    owner_type: Mapped[str] = mapped_column(String(16), nullable=False)
    owner_id: Mapped[str] = mapped_column(String(60), nullable=False)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = created_at_column()

    def __repr__(self) -> str:
        return f"<SavedView {self.id} {self.name!r}>"

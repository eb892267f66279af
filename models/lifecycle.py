"""Who still calls deprecated API items: use per tenant, credential and item, and the
once-a-day record of the api.deprecation_notice sent for each tenant and item."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import Date, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from extensions import db
from models.base import TenantScoped, UTCDateTime, created_at_column, id_column


class DeprecationUsage(TenantScoped, db.Model):
    __tablename__ = "deprecation_usages"
    __table_args__ = (UniqueConstraint("tenant_id", "item", "credential_id"),)

    id: Mapped[str] = id_column("dpu")
    # The registry id of the deprecated item (services/lifecycle/deprecations.py).
    item: Mapped[str] = mapped_column(String(60), nullable=False)
    credential_id: Mapped[str] = mapped_column(String(40), nullable=False)
    credential_kind: Mapped[str] = mapped_column(String(10), nullable=False)
    credential_label: Mapped[str] = mapped_column(String(320), nullable=False)
    first_used_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)
    last_used_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)
    count: Mapped[int] = mapped_column(Integer, nullable=False, default=1)


class DeprecationNotice(TenantScoped, db.Model):
    """One row per tenant, item and UTC day: the unique key is what makes the notice
    at-most-once-a-day even when requests race."""

    __tablename__ = "deprecation_notices"
    __table_args__ = (UniqueConstraint("tenant_id", "item", "day"),)

    id: Mapped[str] = id_column("dpn")
    item: Mapped[str] = mapped_column(String(60), nullable=False)
    day: Mapped[date] = mapped_column(Date, nullable=False)
    event_id: Mapped[str | None] = mapped_column(String(40))
    created_at: Mapped[datetime] = created_at_column()

"""The operator's own log: what was done to whole tenants (a deletion), kept outside every
tenant's audit log so that it outlives the tenant it is about (docs/operations.md)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, String
from sqlalchemy.orm import Mapped, mapped_column

from extensions import db
from models.base import created_at_column, id_column


class OperatorRecord(db.Model):
    __tablename__ = "operator_records"

    id: Mapped[str] = id_column("opr")
    action: Mapped[str] = mapped_column(String(60), nullable=False)  # e.g. tenant.deleted
    # The tenant it was about; no foreign key: the record outlives the tenant.
    tenant_id: Mapped[str] = mapped_column(String(63), nullable=False, index=True)
    # Who ran it: the operating-system user of the CLI, and the host.
    operator: Mapped[str] = mapped_column(String(200), nullable=False)
    details: Mapped[dict] = mapped_column(JSON, nullable=False, default=dict)
    created_at: Mapped[datetime] = created_at_column()

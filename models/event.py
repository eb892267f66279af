"""The event outbox: every domain event is written here in the same transaction as its change."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, Index, String
from sqlalchemy.orm import Mapped, mapped_column

import clock
from extensions import db
from models.base import TenantScoped, UTCDateTime, created_at_column, id_column


class Event(TenantScoped, db.Model):
    __tablename__ = "events"
    __table_args__ = (Index("ix_events_undispatched", "dispatched_at", "created_at"),)
    __not_found_label__ = "Event"

    id: Mapped[str] = id_column("evt")
    type: Mapped[str] = mapped_column(String(80), nullable=False)
    data: Mapped[dict] = mapped_column(JSON, nullable=False, default=dict)
    created_at: Mapped[datetime] = created_at_column()
    # Set by the webhook dispatcher once it has fanned the event out to deliveries.
    dispatched_at: Mapped[datetime | None] = mapped_column(UTCDateTime())

    def as_payload(self) -> dict:
        """CONTRACT §7 event shape."""
        return {
            "id": self.id,
            "type": self.type,
            "createdAt": clock.rfc3339(self.created_at),
            "tenantId": self.tenant_id,
            "data": self.data,
        }

"""Portal sessions, one row per sign-in: the cookie names its row, and a session ends on the
server when its row is revoked (sign-out, a password change, deactivation, "sign out
everywhere"), whatever the browser still holds."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from extensions import db
from models.base import UTCDateTime, created_at_column, id_column


class PortalSession(db.Model):
    __tablename__ = "portal_sessions"
    __table_args__ = (Index("ix_portal_sessions_principal", "principal_id", "revoked_at"),)

    id: Mapped[str] = id_column("ses")
    principal_id: Mapped[str] = mapped_column(String(40), nullable=False)  # usr_… or stf_…
    tenant_id: Mapped[str | None] = mapped_column(
        String(63), ForeignKey("tenants.id", ondelete="CASCADE")
    )  # None for support staff
    ip: Mapped[str | None] = mapped_column(String(45))
    user_agent: Mapped[str | None] = mapped_column(String(300))
    created_at: Mapped[datetime] = created_at_column()
    last_seen_at: Mapped[datetime] = created_at_column()
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    revoked_reason: Mapped[str | None] = mapped_column(String(40))

    @property
    def active(self) -> bool:
        return self.revoked_at is None

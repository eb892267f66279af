"""Notifications: what a person should know (an approval waiting, a webhook endpoint failing
or disabled, an API key due for rotation, a deprecated call); read in the API and the portal's
bell, and pushed to the person's devices (models/push.py)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from extensions import db
from models.base import TenantScoped, UTCDateTime, created_at_column, id_column


class Notification(TenantScoped, db.Model):
    __tablename__ = "notifications"
    __not_found_label__ = "Notification"
    __table_args__ = (
        # One notification per person and cause ("webhook-disabled:whk_…"), so a daily job or
        # a repeated failure never piles up copies; NULL keys (no cause to fold) never collide.
        UniqueConstraint("user_id", "dedupe_key"),
        # The list (newest first) and the bell's unread count.
        Index("ix_notifications_user", "user_id", "id"),
        Index("ix_notifications_unread", "user_id", "read_at"),
    )

    id: Mapped[str] = id_column("ntf")
    user_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("users.id", ondelete="CASCADE"), nullable=False
    )
    type: Mapped[str] = mapped_column(String(60), nullable=False)
    title: Mapped[str] = mapped_column(String(200), nullable=False)
    body: Mapped[str] = mapped_column(Text, nullable=False, default="")
    data: Mapped[dict[str, Any]] = mapped_column(JSON, nullable=False, default=dict)
    dedupe_key: Mapped[str | None] = mapped_column(String(200))
    read_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    created_at: Mapped[datetime] = created_at_column()

    def __repr__(self) -> str:
        return f"<Notification {self.id} {self.type}>"


class NotificationSettings(db.Model):
    """A person's channels beyond the bell and push; without a row, no e-mail."""

    __tablename__ = "notification_settings"

    user_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    email: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    updated_at: Mapped[datetime] = created_at_column()

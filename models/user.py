"""People who sign in: tenant users with a role, and operator-level support staff."""

from __future__ import annotations

import enum
from datetime import datetime

from flask_login import UserMixin
from sqlalchemy import Boolean, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from extensions import db
from models.base import TenantScoped, UTCDateTime, created_at_column, id_column


class Role(enum.StrEnum):
    ADMIN = "admin"  # everything in the portal
    MEMBER = "member"  # API via OAuth, approvals
    AUDITOR = "auditor"  # read-only: keys and audit log


class User(TenantScoped, UserMixin, db.Model):
    __tablename__ = "users"
    __table_args__ = (UniqueConstraint("tenant_id", "email"),)
    __not_found_label__ = "User"

    id: Mapped[str] = id_column("usr")
    email: Mapped[str] = mapped_column(String(254), nullable=False)
    name: Mapped[str | None] = mapped_column(String(200))
    password_hash: Mapped[str | None] = mapped_column(String(255))
    role: Mapped[str] = mapped_column(String(20), nullable=False, default=Role.MEMBER.value)
    is_active_user: Mapped[bool] = mapped_column(Boolean, nullable=False, default=True)
    created_at: Mapped[datetime] = created_at_column()
    last_login_at: Mapped[datetime | None] = mapped_column(UTCDateTime())

    is_support = False

    @property
    def is_active(self) -> bool:  # Flask-Login refuses inactive users
        return self.is_active_user

    def __repr__(self) -> str:
        return f"<User {self.email} {self.role}@{self.tenant_id}>"


class SupportStaff(UserMixin, db.Model):
    """Operator staff: read-only across tenants; every read is audited in that tenant."""

    __tablename__ = "support_staff"

    id: Mapped[str] = id_column("stf")
    email: Mapped[str] = mapped_column(String(254), nullable=False, unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(255))
    is_active_user: Mapped[bool] = mapped_column(Boolean, nullable=False, default=True)
    created_at: Mapped[datetime] = created_at_column()

    is_support = True
    tenant_id = None
    role = "support"

    @property
    def is_active(self) -> bool:
        return self.is_active_user

"""Accounts: a tenant (the customer account that owns users, keys and documents, and its plan),
the people who sign in (tenant users with a role, operator-level support staff), and their
portal sessions, one row per sign-in: a session ends on the server when its row is revoked
(sign-out, a password change, deactivation, "sign out everywhere"), whatever the browser holds."""

from __future__ import annotations

import enum
from datetime import datetime

from flask_login import UserMixin
from sqlalchemy import Boolean, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from extensions import db
from models.base import TenantScoped, UTCDateTime, created_at_column, id_column

SLUG_PATTERN = r"^[a-z0-9][a-z0-9-]{1,62}$"


class Plan(enum.StrEnum):
    FREE = "free"
    STARTER = "starter"
    BUSINESS = "business"
    ENTERPRISE = "enterprise"


# Spec 8.1: requests per sliding hour and the most requests in any 60 seconds.
PLAN_LIMITS: dict[Plan, tuple[int, int]] = {
    Plan.FREE: (100, 20),
    Plan.STARTER: (1_000, 100),
    Plan.BUSINESS: (10_000, 500),
    # Enterprise is negotiated; this is what applies until the operator sets limits.
    Plan.ENTERPRISE: (10_000, 500),
}


class Tenant(db.Model):
    __tablename__ = "tenants"

    # The slug is the id: it is also the subdomain and the X-Tenant-Id value.
    id: Mapped[str] = mapped_column(String(63), primary_key=True)
    name: Mapped[str] = mapped_column(String(200), nullable=False)
    plan: Mapped[str] = mapped_column(String(20), nullable=False, default=Plan.FREE.value)
    custom_domain: Mapped[str | None] = mapped_column(String(253), unique=True)
    # Enterprise limits negotiated per tenant; None means the plan's default.
    hourly_limit: Mapped[int | None] = mapped_column(Integer)
    burst_limit: Mapped[int | None] = mapped_column(Integer)
    # Copilot questions per month negotiated for this tenant; None means the plan's default
    # (DMS_COPILOT_MONTHLY_MESSAGES_<PLAN>, docs/copilot.md).
    copilot_monthly_messages: Mapped[int | None] = mapped_column(Integer)
    # Length of the audit hash chain; bumping it row-locks the tenant, which
    # serialises concurrent audit writers so the chain never forks.
    audit_seq: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    # The first position of the chain that must be keyed: 1 for a tenant created keyed; for
    # one whose chain began unkeyed, where keyed entries began (services/audit/audit_log.py).
    audit_keyed_since: Mapped[int] = mapped_column(
        Integer, nullable=False, default=1, server_default="1"
    )
    # HMAC over (tenant, audit_seq, the newest entry's hash, audit_keyed_since) with the audit
    # key named beside it, rewritten with each entry: cutting the tail, lowering the counter
    # or moving keyed-since cannot be sealed again without the key.
    audit_head_seal: Mapped[str | None] = mapped_column(String(64))
    audit_head_key: Mapped[str | None] = mapped_column(String(40))
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime | None] = mapped_column(UTCDateTime())

    @property
    def plan_enum(self) -> Plan:
        return Plan(self.plan)

    @property
    def limits(self) -> tuple[int, int]:
        """(requests per hour, burst per minute) in force for this tenant."""
        hourly, burst = PLAN_LIMITS[self.plan_enum]
        return (self.hourly_limit or hourly, self.burst_limit or burst)

    def __repr__(self) -> str:
        return f"<Tenant {self.id} {self.plan}>"


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


class Invitation(TenantScoped, db.Model):
    """An admin's invitation of a person by e-mail with a role: a single-use link that
    expires, which sets a password or a passkey and signs the person in. Only the link
    token's SHA-256 is stored."""

    __tablename__ = "invitations"
    __not_found_label__ = "Invitation"
    __table_args__ = (Index("ix_invitations_tenant_email", "tenant_id", "email"),)

    id: Mapped[str] = id_column("inv")
    email: Mapped[str] = mapped_column(String(254), nullable=False)
    role: Mapped[str] = mapped_column(String(20), nullable=False)
    token_digest: Mapped[str] = mapped_column(String(64), nullable=False, unique=True)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)
    accepted_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # The id the person's account gets when they accept, fixed now so that a passkey
    # ceremony can name its user before the account exists.
    user_id: Mapped[str] = mapped_column(String(40), nullable=False)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    created_by: Mapped[str | None] = mapped_column(String(60))
    created_at: Mapped[datetime] = created_at_column()

"""A tenant: the customer account that owns users, keys and documents, and its plan."""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from extensions import db
from models.base import UTCDateTime, created_at_column

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

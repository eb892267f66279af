"""Who may use the copilot, and how much: Business and Enterprise plans only (403
PLAN_UPGRADE_REQUIRED), and a number of questions per tenant and calendar month (UTC), by
plan (`DMS_COPILOT_MONTHLY_MESSAGES_BUSINESS`, 2,000; `…_ENTERPRISE`, 20,000, or the tenant's
own `copilot_monthly_messages`), past which 429 COPILOT_QUOTA_EXCEEDED says when it resets.

`claim` counts a question with one INSERT … ON CONFLICT DO UPDATE … WHERE messages < limit
RETURNING: the row lock (PostgreSQL) or the write lock (SQLite) serialises concurrent claims,
so the count never passes the limit. The caller commits the claim at once, before answering,
so no lock is held while the answer is being written (the documented exception to "the
boundary commits", like the Idempotency-Key claim); `refund` gives it back when the answer
could not be stored."""

from __future__ import annotations

import math
from datetime import datetime
from typing import Protocol

from flask import current_app
from sqlalchemy import select

import clock
from errors import DomainError, FieldError, validation_failed
from extensions import db
from models import CopilotUsage, Plan, Tenant
from services.audit import audit_log
from services.core import upserts
from services.core.actors import Actor


class TenantLike(Protocol):
    plan: str


PLANS_WITH_COPILOT = {Plan.BUSINESS.value, Plan.ENTERPRISE.value}


def require_plan(tenant: Tenant | TenantLike) -> None:
    if tenant.plan not in PLANS_WITH_COPILOT:
        raise DomainError(
            403,
            "PLAN_UPGRADE_REQUIRED",
            "The copilot is part of the Business and Enterprise plans.",
        )


def monthly_limit(tenant: Tenant) -> int:
    if tenant.plan == Plan.ENTERPRISE.value and tenant.copilot_monthly_messages is not None:
        return tenant.copilot_monthly_messages
    name = f"DMS_COPILOT_MONTHLY_MESSAGES_{tenant.plan.upper()}"
    return int(current_app.config.get(name, 0))


MAX_MONTHLY_MESSAGES = 100_000_000


def set_tenant_quota(tenant: Tenant, actor: Actor, messages: int | None) -> None:
    """An Enterprise tenant's own number of questions a month; None restores the plan's."""
    if tenant.plan != Plan.ENTERPRISE.value:
        raise validation_failed(
            [FieldError("VALIDATION_ERROR", "Only Enterprise tenants have their own.", "plan")]
        )
    if messages is not None and not 0 <= messages <= MAX_MONTHLY_MESSAGES:
        message = f"messages must be 0 to {MAX_MONTHLY_MESSAGES:,}."
        raise validation_failed([FieldError("VALIDATION_ERROR", message, "messages")])
    tenant.copilot_monthly_messages = messages
    audit_log.record(
        tenant.id,
        actor,
        "tenant.copilot_quota_changed",
        target_type="tenant",
        target_id=tenant.id,
        details={"messages": messages},
    )


def month_of(when: datetime) -> str:
    return when.strftime("%Y-%m")


def next_reset(when: datetime) -> datetime:
    """The first instant of the next calendar month (UTC)."""
    if when.month == 12:
        return when.replace(
            year=when.year + 1, month=1, day=1, hour=0, minute=0, second=0, microsecond=0
        )
    return when.replace(month=when.month + 1, day=1, hour=0, minute=0, second=0, microsecond=0)


def claim(tenant: Tenant) -> int:
    """Count one question this month; the new count, or 429 when the month's are used up."""
    now = clock.now()
    limit = monthly_limit(tenant)
    table = CopilotUsage.__table__
    used = None
    if limit > 0:
        stmt = (
            upserts.insert(table)
            .values(tenant_id=tenant.id, month=month_of(now), messages=1, updated_at=now)
            .on_conflict_do_update(
                index_elements=[table.c.tenant_id, table.c.month],
                set_={"messages": table.c.messages + 1, "updated_at": now},
                where=table.c.messages < limit,
            )
            .returning(table.c.messages)
        )
        used = db.session.execute(stmt).scalar()
    if used is None:
        reset = next_reset(now)
        raise DomainError(
            429,
            "COPILOT_QUOTA_EXCEEDED",
            f"This month's {limit} copilot questions are used up; the count resets on "
            f"{reset.strftime('%Y-%m-%dT%H:%M:%SZ')}.",
            headers={
                "Retry-After": str(max(1, math.ceil((reset - now).total_seconds()))),
                "X-Copilot-Quota-Reset": reset.strftime("%Y-%m-%dT%H:%M:%SZ"),
            },
        )
    return used


def refund(tenant_id: str, month: str) -> None:
    row = db.session.get(CopilotUsage, (tenant_id, month))
    if row is not None and row.messages > 0:
        row.messages -= 1


def usage_by_month(tenant_id: str, months: int = 12) -> list[tuple[str, int]]:
    """(month, questions) of the tenant's last `months` months with any use, oldest first."""
    rows = db.session.execute(
        select(CopilotUsage.month, CopilotUsage.messages)
        .where(CopilotUsage.tenant_id == tenant_id)
        .order_by(CopilotUsage.month.desc())
        .limit(months)
    ).all()
    return [(m, n) for m, n in reversed(rows)]


def month_of_now() -> str:
    return month_of(clock.now())

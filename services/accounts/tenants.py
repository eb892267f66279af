"""Creating tenants, changing their plan limits, and finding them by slug or domain."""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy import func, select

from errors import DomainError, FieldError, validation_failed
from extensions import db
from models import Plan, Tenant
from models.accounts import SLUG_PATTERN
from services.audit import audit_log
from services.core.actors import Actor


@dataclass(frozen=True)
class TenantRef:
    """What a request needs of its tenant: the id, the plan and the limits in force."""

    id: str
    name: str
    plan: str
    limits: tuple[int, int]  # (requests per hour, burst per minute)
    custom_domain: str | None

    @classmethod
    def of(cls, tenant: Tenant) -> TenantRef:
        return cls(tenant.id, tenant.name, tenant.plan, tenant.limits, tenant.custom_domain)


_SLUG_RE = re.compile(SLUG_PATTERN)
MAX_LIMIT = 1_000_000_000  # negotiated limits fit the 32-bit columns
_HOST_RE = re.compile(r"^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$")


def create_tenant(
    slug: str, plan: str, actor: Actor, *, name: str | None = None, domain: str | None = None
) -> Tenant:
    errors: list[FieldError] = []
    if not _SLUG_RE.match(slug or ""):
        errors.append(
            FieldError(
                "VALIDATION_ERROR",
                "Tenant id must be 2-63 characters of a-z, 0-9 and '-', starting with a "
                "letter or digit.",
                "slug",
            )
        )
    if plan not in {p.value for p in Plan}:
        errors.append(
            FieldError(
                "VALIDATION_ERROR",
                f"Plan must be one of {', '.join(p.value for p in Plan)}.",
                "plan",
            )
        )
    domain = domain.lower().strip(".") if domain else None
    if domain and not _HOST_RE.match(domain):
        errors.append(FieldError("VALIDATION_ERROR", f"{domain!r} is not a host name.", "domain"))
    if errors:
        raise validation_failed(errors)
    if db.session.get(Tenant, slug) is not None:
        raise DomainError(409, "CONFLICT", f"Tenant {slug!r} already exists.", "slug")
    if domain and find_by_domain(domain) is not None:
        raise DomainError(409, "CONFLICT", f"Domain {domain!r} is taken.", "domain")
    tenant = Tenant(id=slug, name=name or slug, plan=plan, custom_domain=domain)
    db.session.add(tenant)
    db.session.flush()
    audit_log.record(
        tenant.id,
        actor,
        "tenant.created",
        target_type="tenant",
        target_id=tenant.id,
        details={"plan": plan, "domain": domain},
    )
    return tenant


def set_limits(tenant: Tenant, actor: Actor, *, hourly: int | None, burst: int | None) -> None:
    """Negotiated limits (enterprise); None restores the plan's default."""
    for label, value in (("hourly", hourly), ("burst", burst)):
        if value is not None and not 1 <= value <= MAX_LIMIT:
            raise validation_failed(
                [FieldError("VALIDATION_ERROR", f"{label} must be 1 to {MAX_LIMIT:,}.", label)]
            )
    tenant.hourly_limit, tenant.burst_limit = hourly, burst
    audit_log.record(
        tenant.id,
        actor,
        "tenant.limits_changed",
        target_type="tenant",
        target_id=tenant.id,
        details={"hourly": hourly, "burst": burst},
    )


def get_tenant(slug: str) -> Tenant | None:
    if not _SLUG_RE.match(slug or ""):
        return None
    return db.session.get(Tenant, slug)


def require_tenant(slug: str) -> Tenant:
    tenant = get_tenant(slug)
    if tenant is None:
        raise DomainError(404, "NOT_FOUND", f"No tenant {slug!r}.")
    return tenant


def find_by_domain(host: str) -> Tenant | None:
    return db.session.scalar(select(Tenant).where(func.lower(Tenant.custom_domain) == host))


def list_tenants() -> list[Tenant]:
    return list(db.session.scalars(select(Tenant).order_by(Tenant.id)))

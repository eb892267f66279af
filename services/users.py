"""Tenant users and support staff: creation, password checks, role changes."""

from __future__ import annotations

from email_validator import EmailNotValidError, validate_email
from sqlalchemy import func, select

import clock
from errors import DomainError, FieldError, validation_failed
from extensions import db
from models import Role, SupportStaff, Tenant, User
from services import audit
from services.actors import Actor
from services.passwords import hash_password, verify_password

MIN_PASSWORD_LENGTH = 10


def normalise_email(email: str) -> str:
    try:
        # Self-hosted teams use intranet domains (corp.internal): accept any syntactically
        # valid address, not only globally deliverable ones.
        checked = validate_email(
            (email or "").strip(), check_deliverability=False, globally_deliverable=False
        )
        return checked.normalized.lower()
    except EmailNotValidError:
        raise validation_failed(
            [FieldError("VALIDATION_ERROR", f"{email!r} is not an email address.", "email")]
        ) from None


def _check_password(password: str | None) -> None:
    if password is not None and len(password) < MIN_PASSWORD_LENGTH:
        raise validation_failed(
            [
                FieldError(
                    "VALIDATION_ERROR",
                    f"Password must be at least {MIN_PASSWORD_LENGTH} characters.",
                    "password",
                )
            ]
        )


def create_user(
    tenant: Tenant,
    email: str,
    role: str,
    actor: Actor,
    *,
    password: str | None = None,
    name: str | None = None,
) -> User:
    email = normalise_email(email)
    if role not in {r.value for r in Role}:
        raise validation_failed(
            [
                FieldError(
                    "VALIDATION_ERROR",
                    f"Role must be one of {', '.join(r.value for r in Role)}.",
                    "role",
                )
            ]
        )
    _check_password(password)
    if find_user(tenant.id, email) is not None:
        raise DomainError(409, "CONFLICT", f"{email} already has an account here.", "email")
    user = User(
        tenant_id=tenant.id,
        email=email,
        role=role,
        name=name,
        password_hash=hash_password(password) if password else None,
    )
    db.session.add(user)
    db.session.flush()
    audit.record(
        tenant.id,
        actor,
        "user.created",
        target_type="user",
        target_id=user.id,
        details={"email": email, "role": role},
    )
    return user


def change_role(user: User, role: str, actor: Actor) -> None:
    if role not in {r.value for r in Role}:
        raise validation_failed([FieldError("VALIDATION_ERROR", "Unknown role.", "role")])
    old, user.role = user.role, role
    audit.record(
        user.tenant_id,
        actor,
        "user.role_changed",
        target_type="user",
        target_id=user.id,
        details={"from": old, "to": role},
    )


def set_active(user: User, active: bool, actor: Actor) -> None:
    user.is_active_user = active
    audit.record(
        user.tenant_id,
        actor,
        "user.reactivated" if active else "user.deactivated",
        target_type="user",
        target_id=user.id,
    )


def find_user(tenant_id: str, email: str) -> User | None:
    return db.session.scalar(
        select(User).where(User.tenant_id == tenant_id, func.lower(User.email) == email.lower())
    )


def authenticate_user(tenant: Tenant, email: str, password: str) -> User | None:
    """The active user with these credentials, or None; timing does not reveal which part failed."""
    user = find_user(tenant.id, (email or "").strip())
    ok = verify_password(user.password_hash if user else None, password or "")
    if user is None or not ok or not user.is_active:
        return None
    user.last_login_at = clock.now()
    return user


def create_support(email: str, *, password: str | None = None) -> SupportStaff:
    email = normalise_email(email)
    _check_password(password)
    exists = db.session.scalar(select(SupportStaff).where(SupportStaff.email == email))
    if exists is not None:
        raise DomainError(409, "CONFLICT", f"{email} is already support staff.", "email")
    staff = SupportStaff(email=email, password_hash=hash_password(password) if password else None)
    db.session.add(staff)
    db.session.flush()
    return staff


def authenticate_support(email: str, password: str) -> SupportStaff | None:
    staff = db.session.scalar(
        select(SupportStaff).where(SupportStaff.email == (email or "").strip().lower())
    )
    ok = verify_password(staff.password_hash if staff else None, password or "")
    if staff is None or not ok or not staff.is_active:
        return None
    return staff

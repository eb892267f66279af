"""Tenant users and support staff: creation, password checks, role changes."""

from __future__ import annotations

import email_validator
from email_validator import EmailNotValidError, validate_email
from sqlalchemy import func, select

import clock
from errors import DomainError, FieldError, validation_failed
from extensions import db
from models import Role, SupportStaff, Tenant, User
from services.accounts import sessions
from services.accounts.passwords import hash_password, verify_password
from services.audit import audit_log
from services.core import signals
from services.core.actors import Actor

MIN_PASSWORD_LENGTH = 10

# Self-hosted teams use internal names: Active Directory's corp.local, .test, .internal,
# .lan. Any syntactically valid address is accepted, so the library's list of refused
# special-use names (its documented knob) is emptied.
email_validator.SPECIAL_USE_DOMAIN_NAMES.clear()


def normalise_email(email: str) -> str:
    try:
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
    user_id: str | None = None,
) -> User:
    """A tenant user; `user_id` when the id was fixed beforehand (an invitation's)."""
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
        **({"id": user_id} if user_id else {}),
        tenant_id=tenant.id,
        email=email,
        role=role,
        name=name,
        password_hash=hash_password(password) if password else None,
    )
    db.session.add(user)
    db.session.flush()
    signals.user_access_changed.send(user)
    audit_log.record(
        tenant.id,
        actor,
        "user.created",
        target_type="user",
        target_id=user.id,
        details={"email": email, "role": role},
    )
    return user


def _refuse_self(user: User, actor: Actor, what: str) -> None:
    # An admin locking themselves out would leave a workspace nobody can administer.
    if actor.id == user.id:
        raise DomainError(409, "CONFLICT", f"You cannot {what} your own account.")


def change_role(user: User, role: str, actor: Actor) -> None:
    _refuse_self(user, actor, "change the role of")
    if role not in {r.value for r in Role}:
        raise validation_failed([FieldError("VALIDATION_ERROR", "Unknown role.", "role")])
    old, user.role = user.role, role
    signals.user_access_changed.send(user)
    audit_log.record(
        user.tenant_id,
        actor,
        "user.role_changed",
        target_type="user",
        target_id=user.id,
        details={"from": old, "to": role},
    )


def set_active(user: User, active: bool, actor: Actor) -> None:
    _refuse_self(user, actor, "deactivate")
    user.is_active_user = active
    signals.user_access_changed.send(user)
    if not active:
        sessions.end_all(user.id, "deactivated")
    audit_log.record(
        user.tenant_id,
        actor,
        "user.reactivated" if active else "user.deactivated",
        target_type="user",
        target_id=user.id,
    )


def set_password(user: User, password: str, actor: Actor) -> None:
    """A new password for a tenant user (the operator's seed command, the user themselves)."""
    _check_password(password)
    user.password_hash = hash_password(password)
    sessions.end_all(user.id, "password-changed")
    audit_log.record(
        user.tenant_id,
        actor,
        "user.password_changed",
        target_type="user",
        target_id=user.id,
    )


def sign_out_everywhere(user: User, actor: Actor) -> int:
    """End every portal session of the user (a lost laptop, a departure); audited."""
    ended = sessions.end_all(user.id, "signed-out-everywhere")
    audit_log.record(
        user.tenant_id,
        actor,
        "user.signed_out_everywhere",
        target_type="user",
        target_id=user.id,
        details={"sessions": ended},
    )
    return ended


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

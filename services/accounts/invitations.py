"""Invitations (CONTRACT §10): an admin invites a person by e-mail with a role; the person
opens a single-use link that expires in 7 days, sets a password or a passkey and is signed
in. The link's token is 256 random bits, only its SHA-256 is stored, and it is found by that
digest (an indexed lookup; the digest of a guess reveals nothing about a real token). The
message goes out through SMTP (services/core/smtp.py) from a job; without SMTP the create
answer carries the link for the admin to pass on. Flushes; the caller commits."""

from __future__ import annotations

import enum
import hashlib
import hmac
import secrets
from collections.abc import Callable, Sequence
from datetime import timedelta
from typing import Any

from sqlalchemy import select, update

import clock
from errors import DomainError, FieldError, validation_failed
from extensions import db
from models import Invitation, Role, Tenant, User
from models.base import new_id
from services.accounts import users
from services.audit import audit_log
from services.core import smtp
from services.core.actors import Actor
from services.core.paging import keyset_page

LIFETIME = timedelta(days=7)
TOKEN_BYTES = 32


class State(enum.StrEnum):
    PENDING = "pending"
    ACCEPTED = "accepted"
    EXPIRED = "expired"
    REVOKED = "revoked"


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def state_of(invitation: Invitation) -> State:
    if invitation.accepted_at is not None:
        return State.ACCEPTED
    if invitation.revoked_at is not None:
        return State.REVOKED
    if invitation.expires_at <= clock.now():
        return State.EXPIRED
    return State.PENDING


def create_invitation(
    tenant: Tenant, email: str, role: str, actor: Actor, link: Callable[[str], str]
) -> tuple[Invitation, str]:
    """Invite `email` as `role`: (the invitation, its accept link). An open invitation of
    the same address is revoked (this one replaces it); an address with an account is 409."""
    email = users.normalise_email(email)
    if role not in {r.value for r in Role}:
        roles = ", ".join(r.value for r in Role)
        raise validation_failed([FieldError("VALIDATION_ERROR", f"Role must be one of {roles}.",
                                            "role")])  # fmt: skip
    if users.find_user(tenant.id, email) is not None:
        raise DomainError(409, "CONFLICT", f"{email} already has an account here.", "email")
    now = clock.now()
    db.session.execute(
        update(Invitation)
        .where(
            Invitation.tenant_id == tenant.id,
            Invitation.email == email,
            Invitation.accepted_at.is_(None),
            Invitation.revoked_at.is_(None),
        )
        .values(revoked_at=now)
        .execution_options(synchronize_session=False)
    )
    token = secrets.token_urlsafe(TOKEN_BYTES)
    invitation = Invitation(
        tenant_id=tenant.id,
        email=email,
        role=role,
        token_digest=_digest(token),
        user_id=new_id("usr"),
        expires_at=now + LIFETIME,
        created_by=actor.ref,
    )
    db.session.add(invitation)
    db.session.flush()
    url = link(token)
    smtp.send_later(email, f"You are invited to {tenant.name}", _message(tenant, actor, role, url))
    audit_log.record(
        tenant.id, actor, "invitation.created", target_type="invitation",
        target_id=invitation.id, details={"email": email, "role": role},
    )  # fmt: skip
    return invitation, url


def _message(tenant: Tenant, actor: Actor, role: str, url: str) -> str:
    who = actor.label or "An administrator"
    return (
        f"{who} invited you to the {tenant.name} workspace as {role}.\n\n"
        f"Open this link to set your password (or a passkey) and sign in:\n{url}\n\n"
        f"The link works once and expires in {LIFETIME.days} days. If you did not expect "
        "this invitation, ignore this message.\n"
    )


def list_invitations(
    tenant_id: str, limit: int, after: Sequence[Any] | None
) -> tuple[list[Invitation], bool]:
    stmt = select(Invitation).where(Invitation.tenant_id == tenant_id)
    return keyset_page(stmt, [(Invitation.id, True)], limit, after)


def get_invitation(tenant_id: str, invitation_id: str) -> Invitation:
    return Invitation.get_for_tenant(invitation_id, tenant_id)


def revoke(invitation: Invitation, actor: Actor) -> Invitation:
    """Revoke an open invitation (its link answers 410); revoking again changes nothing."""
    if invitation.accepted_at is not None:
        raise DomainError(409, "CONFLICT", "This invitation was accepted already.")
    if invitation.revoked_at is None:
        invitation.revoked_at = clock.now()
        db.session.flush()
        audit_log.record(
            invitation.tenant_id, actor, "invitation.revoked", target_type="invitation",
            target_id=invitation.id, details={"email": invitation.email},
        )  # fmt: skip
    return invitation


class Gone(Exception):
    """The link no longer works: why, in words for the person who opened it."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


REASONS = {
    State.ACCEPTED: "This invitation was used already. Sign in with the password you set.",
    State.EXPIRED: "This invitation has expired. Ask your administrator for a new one.",
    State.REVOKED: "This invitation was withdrawn. Ask your administrator for a new one.",
}


def open_invitation(token: str, tenant_id: str | None = None) -> Invitation:
    """The pending invitation of a link's token: DomainError 404 when no invitation has it
    (or one of another tenant than the host names), Gone when it no longer works."""
    invitation = db.session.scalar(
        select(Invitation).where(Invitation.token_digest == _digest(token or ""))
    )
    if (
        invitation is None
        or not hmac.compare_digest(invitation.token_digest, _digest(token or ""))
        or (tenant_id is not None and invitation.tenant_id != tenant_id)
    ):
        raise DomainError(404, "NOT_FOUND", "Invitation not found.")
    state = state_of(invitation)
    if state is not State.PENDING:
        raise Gone(REASONS[state])
    return invitation


def newcomer(invitation: Invitation, name: str | None = None) -> User:
    """The account the invitation will create, not yet stored (a passkey ceremony names it)."""
    return User(
        id=invitation.user_id,
        tenant_id=invitation.tenant_id,
        email=invitation.email,
        role=invitation.role,
        name=name,
    )


def accept(
    invitation: Invitation, actor: Actor, *, password: str | None, name: str | None = None
) -> User:
    """Create the person's account (with `password`, or none when a passkey follows in the
    same unit of work) and spend the invitation; once only, also against a concurrent accept."""
    spent = db.session.execute(
        update(Invitation)
        .where(
            Invitation.id == invitation.id,
            Invitation.accepted_at.is_(None),
            Invitation.revoked_at.is_(None),
            Invitation.expires_at > clock.now(),
        )
        .values(accepted_at=clock.now())
        .execution_options(synchronize_session=False)
    )
    if not spent.rowcount:
        raise Gone(REASONS[State.ACCEPTED])
    tenant = db.session.get(Tenant, invitation.tenant_id)
    user = users.create_user(
        tenant,
        invitation.email,
        invitation.role,
        actor,
        password=password,
        name=(name or "").strip()[:200] or None,
        user_id=invitation.user_id,
    )
    db.session.refresh(invitation)
    audit_log.record(
        invitation.tenant_id, Actor("user", user.id, user.email, actor.ip, actor.user_agent),
        "invitation.accepted", target_type="invitation", target_id=invitation.id,
        details={"email": user.email, "role": user.role},
    )  # fmt: skip
    return user

"""Signing a person in with a password: the failure throttle, the credential check and the
audit record of every outcome. The portal calls it today; the API's login and the OAuth
sign-in page will call the same. Flushes; the caller commits and starts the session."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from models import SupportStaff, User
from services.accounts import login_throttle, sessions, tenants, users
from services.audit import audit_log
from services.core.actors import Actor

log = logging.getLogger("dms.sign_in")

# One message for every cause, so the answer does not reveal which accounts exist.
NO_MATCH = "That workspace, email and password do not match an active account."


@dataclass(frozen=True)
class SignIn:
    """The outcome: the principal signed in, or why not (a message and an HTTP status)."""

    principal: User | SupportStaff | None
    error: str | None = None
    status: int = 200
    retry_after: int | None = None  # seconds, when throttled
    second_step: bool = False  # the password is right; a second factor must follow


def sign_in(
    workspace: str | None,
    email: str,
    password: str,
    ip: str,
    user_agent: str | None,
    second_step: Callable[[User], bool] | None = None,
) -> SignIn:
    """A tenant user (with `workspace`) or support staff (without) signing in. When
    `second_step` says the user needs a second factor, the sign-in is not audited yet: the
    second step records it (services/mfa/challenges.py)."""
    if not email or not password:
        return SignIn(None, "Enter your email address and password.", 400)
    refusal = login_throttle.refusal(workspace, email, ip)
    tenant = tenants.get_tenant(workspace) if workspace else None
    if refusal is not None:
        if tenant is not None:
            _record_failure(tenant.id, email, ip, user_agent, f"throttled ({refusal.scope})")
        return SignIn(None, refusal.message, 429, refusal.retry_after)
    if workspace:
        principal = users.authenticate_user(tenant, email, password) if tenant else None
    else:
        principal = users.authenticate_support(email, password)
    if principal is None:
        login_throttle.record_failure(workspace, email, ip)
        if tenant is not None:
            _record_failure(tenant.id, email, ip, user_agent, "bad credentials")
        else:
            log.info("sign-in failed", extra={"workspace": workspace, "ip": ip})
        return SignIn(None, NO_MATCH, 401)
    login_throttle.clear_account(workspace, email, ip)
    if not principal.is_support and second_step is not None and second_step(principal):
        return SignIn(principal, second_step=True)
    if principal.is_support:
        log.info("support staff signed in", extra={"staff": principal.id, "ip": ip})
    else:
        audit_log.record(
            principal.tenant_id,
            Actor("user", principal.id, principal.email, ip, user_agent),
            "user.login",
            target_type="user",
            target_id=principal.id,
        )
    return SignIn(principal)


def sign_out(user: User | SupportStaff, session_id: str | None, actor: Actor) -> None:
    sessions.end(session_id, "sign-out")
    if not user.is_support:
        audit_log.record(
            user.tenant_id, actor, "user.logout", target_type="user", target_id=user.id
        )


def _record_failure(
    tenant_id: str, email: str, ip: str, user_agent: str | None, reason: str
) -> None:
    known = users.find_user(tenant_id, email)
    audit_log.record(
        tenant_id,
        Actor("user", known.id if known else None, email[:254], ip, user_agent),
        "user.login_failed",
        target_type="user",
        target_id=known.id if known else None,
        details={"email": email[:254], "reason": reason, "knownUser": known is not None},
    )

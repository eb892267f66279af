"""The second step of a password sign-in: the `mfaToken` (256 random bits, its SHA-256 stored)
issued when the password was right and TOTP is on, good for 5 minutes, one success and a few
wrong codes, bound to the person and tenant it was issued for; and redeeming it with a TOTP
code or a recovery code, throttled per person and per client address."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import select, update

import clock
from errors import DomainError
from extensions import db
from models import MfaChallenge, User
from services.audit import audit_log
from services.core.actors import Actor
from services.mfa import recovery, throttle, totp

LIFETIME = timedelta(minutes=5)
MAX_FAILURES = 5  # wrong codes one token takes before the password is needed again
TOKEN_PREFIX = "mfa_"  # noqa: S105  (a public prefix, not a secret)


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def required(user: User) -> bool:
    """Whether a password sign-in of this person needs a second step."""
    return totp.enabled(user)


def issue(user: User) -> str:
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    db.session.add(
        MfaChallenge(
            tenant_id=user.tenant_id,
            user_id=user.id,
            token_digest=_digest(token),
            expires_at=clock.now() + LIFETIME,
        )
    )
    db.session.flush()
    return token


@dataclass(frozen=True)
class Redeemed:
    user: User | None
    refusal: DomainError | None = None


def _expired() -> DomainError:
    return DomainError(
        401,
        "INVALID_TOKEN",
        "This sign-in has expired or was used: sign in with your password again.",
        "mfaToken",
    )


def redeem(
    tenant_id: str,
    token: str,
    code: str | None,
    recovery_code: str | None,
    ip: str,
    user_agent: str | None,
) -> Redeemed:
    """The person signed in by the token and a second factor, or the refusal (returned, so
    that the failure's count and audit entry are committed with the answer)."""
    challenge = db.session.scalar(
        select(MfaChallenge).where(
            MfaChallenge.tenant_id == tenant_id,
            MfaChallenge.token_digest == _digest(token or ""),
        )
    )
    now = clock.now()
    if challenge is None or challenge.used_at is not None or challenge.expires_at <= now:
        return Redeemed(None, _expired())
    user = User.find_for_tenant(challenge.user_id, tenant_id)
    if user is None or not user.is_active:
        return Redeemed(None, _expired())
    wait = throttle.retry_after(user.id, ip)
    if wait is not None:
        return Redeemed(
            None,
            DomainError(
                429,
                "RATE_LIMIT_EXCEEDED",
                f"Too many wrong codes. Try again in {wait} seconds.",
                headers={"Retry-After": str(wait)},
            ),
        )
    actor = Actor("user", user.id, user.email, ip, user_agent)
    authenticator = totp.find(user)
    if recovery_code:
        right = recovery.spend(user, recovery_code, actor)
    else:
        right = (
            authenticator is not None
            and authenticator.confirmed_at is not None
            and totp.check(authenticator, code or "")
        )
    if not right:
        return Redeemed(
            None, _wrong(challenge, user, actor, "recovery" if recovery_code else "totp")
        )
    spent = db.session.execute(
        update(MfaChallenge)
        .where(MfaChallenge.id == challenge.id, MfaChallenge.used_at.is_(None))
        .values(used_at=now)
        .execution_options(synchronize_session=False)
    )
    if not spent.rowcount:  # a concurrent request spent it first
        return Redeemed(None, _expired())
    throttle.clear_user(user.id, ip)
    # The sign-in itself, recorded now that both factors are in (the password step is not).
    audit_log.record(
        tenant_id, actor, "user.login", target_type="user", target_id=user.id,
        details={"secondFactor": "recovery_code" if recovery_code else "totp"},
    )  # fmt: skip
    return Redeemed(user)


def _wrong(challenge: MfaChallenge, user: User, actor: Actor, method: str) -> DomainError:
    throttle.record_failure(user.id, actor.ip or "-")
    challenge.failures += 1
    if challenge.failures >= MAX_FAILURES:
        challenge.used_at = clock.now()
    audit_log.record(
        user.tenant_id, actor, "mfa.failed", target_type="user", target_id=user.id,
        details={"method": method, "failures": challenge.failures},
    )  # fmt: skip
    return DomainError(
        401,
        "INVALID_CREDENTIALS",
        "That code is not right, or was used already.",
        "recoveryCode" if method == "recovery" else "code",
    )

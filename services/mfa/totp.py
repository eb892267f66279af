"""TOTP authenticators (RFC 6238, 30-second steps, six digits) with pyotp: set-up (a secret
and its otpauth URI, pending until a first code confirms it), checking a code once only (the
step of the newest accepted code is kept, so a code seen over a shoulder or replayed is
refused) and turning it off. The secret is stored encrypted (services/core/sealing.py)."""

from __future__ import annotations

import hmac
import logging
import re

import pyotp
from sqlalchemy import update

import clock
from errors import DomainError, FieldError, validation_failed
from extensions import db
from models import TotpAuthenticator, User
from services.audit import audit_log
from services.core import sealing
from services.core.actors import Actor
from services.mfa import recovery

log = logging.getLogger("dms.mfa")
PURPOSE = "mfa-totp-secrets"
ISSUER = "DMS"
# Codes of the step before and after now are accepted: a phone's clock a little off.
DRIFT_STEPS = 1
CODE = re.compile(r"^[0-9]{6}$")


def clean_code(code: str | None) -> str:
    return re.sub(r"[\s-]", "", code or "")[:16]


def find(user: User) -> TotpAuthenticator | None:
    return db.session.scalar(
        TotpAuthenticator.query_for_tenant(user.tenant_id).where(
            TotpAuthenticator.user_id == user.id
        )
    )


def enabled(user: User) -> bool:
    authenticator = find(user)
    return authenticator is not None and authenticator.confirmed_at is not None


def start(user: User) -> tuple[str, str]:
    """A new secret for the person, pending until confirmed: (secret, otpauth URI). Asking
    again replaces a pending secret; with TOTP on, it must be turned off first (409)."""
    authenticator = find(user)
    if authenticator is not None and authenticator.confirmed_at is not None:
        raise DomainError(
            409, "CONFLICT", "Two-factor sign-in is on already; turn it off to set up another."
        )
    secret = pyotp.random_base32()  # 160 bits, as RFC 4226 recommends
    if authenticator is None:
        authenticator = TotpAuthenticator(tenant_id=user.tenant_id, user_id=user.id)
        db.session.add(authenticator)
    authenticator.secret_encrypted = sealing.seal(secret, PURPOSE)
    authenticator.last_used_step = 0
    db.session.flush()
    return secret, otpauth_uri(user, secret)


def otpauth_uri(user: User, secret: str) -> str:
    return pyotp.TOTP(secret).provisioning_uri(
        name=user.email, issuer_name=f"{ISSUER} ({user.tenant_id})"
    )


def pending_secret(user: User) -> str | None:
    """The secret of a set-up not yet confirmed (the portal draws its QR code again)."""
    authenticator = find(user)
    if authenticator is None or authenticator.confirmed_at is not None:
        return None
    return sealing.unseal(authenticator.secret_encrypted, PURPOSE)


def _matching_step(secret: str, code: str) -> int | None:
    """The step whose code `code` is, within the drift, compared in constant time."""
    totp = pyotp.TOTP(secret)
    now_step = totp.timecode(clock.now())
    found = None
    for step in range(now_step - DRIFT_STEPS, now_step + DRIFT_STEPS + 1):
        if hmac.compare_digest(totp.generate_otp(step), code):
            found = step
    return found


def check(authenticator: TotpAuthenticator, code: str) -> bool:
    """Whether `code` is right and newer than every code accepted before; an accepted code's
    step is kept in the same statement, so two requests cannot both spend one code."""
    code = clean_code(code)
    if not CODE.match(code):
        return False
    try:
        secret = sealing.unseal(authenticator.secret_encrypted, PURPOSE)
    except ValueError:  # SECRET_KEY changed (a moved tenant): an admin resets the person's TOTP
        log.warning("TOTP secret unreadable", extra={"user": authenticator.user_id})
        return False
    step = _matching_step(secret, code)
    if step is None or step <= authenticator.last_used_step:
        return False
    spent = db.session.execute(
        update(TotpAuthenticator)
        .where(
            TotpAuthenticator.id == authenticator.id,
            TotpAuthenticator.last_used_step < step,
        )
        .values(last_used_step=step)
        .execution_options(synchronize_session=False)
    )
    if not spent.rowcount:
        return False
    db.session.refresh(authenticator)
    return True


def _wrong_code() -> DomainError:
    return validation_failed(
        [
            FieldError(
                "VALIDATION_ERROR",
                "That code is not right, or was used already: enter the code your "
                "authenticator app shows now.",
                "code",
            )
        ]
    )


def confirm(user: User, code: str, actor: Actor) -> list[str]:
    """Turn TOTP on with a first right code; answers the ten recovery codes (shown once)."""
    authenticator = find(user)
    if authenticator is None or authenticator.confirmed_at is not None:
        raise DomainError(
            409, "CONFLICT", "Start the set-up first: there is no pending authenticator."
        )
    if not check(authenticator, code):
        raise _wrong_code()
    authenticator.confirmed_at = clock.now()
    codes = recovery.replace(user)
    audit_log.record(user.tenant_id, actor, "mfa.totp_enabled", target_type="user",
                     target_id=user.id)  # fmt: skip
    return codes


def disable(user: User, code: str, actor: Actor) -> None:
    """Turn TOTP off with a current code (or one of the recovery codes); its recovery codes go."""
    authenticator = find(user)
    if authenticator is None or authenticator.confirmed_at is None:
        raise DomainError(409, "CONFLICT", "Two-factor sign-in is not on.")
    if not (check(authenticator, code) or recovery.spend(user, code, actor)):
        raise _wrong_code()
    db.session.delete(authenticator)
    recovery.remove_all(user)
    db.session.flush()
    audit_log.record(user.tenant_id, actor, "mfa.totp_disabled", target_type="user",
                     target_id=user.id)  # fmt: skip


def reset(user: User, actor: Actor) -> bool:
    """An admin turns a person's TOTP off without a code (a lost phone and lost recovery
    codes); the person signs in with the password alone and may set it up again. Audited."""
    authenticator = find(user)
    if authenticator is None:
        return False
    db.session.delete(authenticator)
    recovery.remove_all(user)
    db.session.flush()
    audit_log.record(user.tenant_id, actor, "mfa.totp_reset", target_type="user",
                     target_id=user.id)  # fmt: skip
    return True

"""The tenant's `requireMfa` (admins): people without a second factor (no TOTP, no passkey)
are sent to set one up at their next portal sign-in and use the portal only after that."""

from __future__ import annotations

import clock
from extensions import db
from models import MfaSettings, User
from services.audit import audit_log
from services.core.actors import Actor
from services.mfa import recovery, totp
from services.passkeys import credentials


def require_mfa(tenant_id: str) -> bool:
    row = db.session.get(MfaSettings, tenant_id)
    return row is not None and row.require_mfa


def set_require_mfa(tenant_id: str, required: bool, actor: Actor) -> bool:
    """Require a second factor or not (audited when it changes)."""
    row = db.session.get(MfaSettings, tenant_id)
    if (row is not None and row.require_mfa) == required:
        return required
    if row is None:
        row = MfaSettings(tenant_id=tenant_id)
        db.session.add(row)
    row.require_mfa = required
    row.updated_by = actor.ref
    row.updated_at = clock.now()
    db.session.flush()
    audit_log.record(
        tenant_id,
        actor,
        "mfa.required" if required else "mfa.not_required",
        target_type="tenant",
        target_id=tenant_id,
    )
    return required


def status(user: User) -> dict:
    """What the person has: `{"totp", "passkeys", "recoveryCodesLeft"}` (CONTRACT §10)."""
    return {
        "totp": totp.enabled(user),
        "passkeys": len(credentials.list_for_user(user)),
        "recoveryCodesLeft": recovery.left(user),
    }


def has_second_factor(user: User) -> bool:
    return totp.enabled(user) or bool(credentials.list_for_user(user))


def must_set_up(user: User) -> bool:
    """Whether the tenant requires a second factor that this person does not have."""
    return require_mfa(user.tenant_id) and not has_second_factor(user)

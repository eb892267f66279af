"""Recovery codes: ten single-use codes made when TOTP is turned on, shown once, for a lost
phone. Each is 60 random bits, so a keyed HMAC-SHA256 digest is stored rather than an
Argon2 hash: Argon2's cost protects low-entropy passwords from guessing, which 60 random bits
do not need, and a keyed digest lets one indexed lookup find the code where Argon2 would
cost ten verifications (about 0.5 s and 64 MiB each time) per attempt. The key is derived
from SECRET_KEY (services/core/sealing.py): a copy of the database alone cannot be checked."""

from __future__ import annotations

import re
import secrets

from sqlalchemy import delete, func, select, update

import clock
from extensions import db
from models import RecoveryCode, User
from services.audit import audit_log
from services.core import sealing
from services.core.actors import Actor

PURPOSE = "mfa-recovery-codes"
COUNT = 10
ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i: read off paper without doubt
GROUPS, GROUP_LENGTH = 3, 4


def _new_code() -> str:
    groups = ("".join(secrets.choice(ALPHABET) for _ in range(GROUP_LENGTH)) for _ in range(GROUPS))
    return "-".join(groups)


def _normal(code: str | None) -> str:
    return re.sub(r"[\s-]", "", (code or "").lower())[:32]


def replace(user: User) -> list[str]:
    """Ten new codes for the person, the old ones gone; the codes themselves, once."""
    remove_all(user)
    codes = [_new_code() for _ in range(COUNT)]
    for code in codes:
        db.session.add(
            RecoveryCode(
                tenant_id=user.tenant_id,
                user_id=user.id,
                code_digest=sealing.keyed_digest(_normal(code), PURPOSE),
            )
        )
    db.session.flush()
    return codes


def remove_all(user: User) -> None:
    db.session.execute(
        delete(RecoveryCode).where(
            RecoveryCode.tenant_id == user.tenant_id, RecoveryCode.user_id == user.id
        )
    )


def left(user: User) -> int:
    return db.session.scalar(
        select(func.count()).where(
            RecoveryCode.tenant_id == user.tenant_id,
            RecoveryCode.user_id == user.id,
            RecoveryCode.used_at.is_(None),
        )
    )


def spend(user: User, code: str | None, actor: Actor) -> bool:
    """Use one of the person's unused codes: True once per code, audited."""
    normal = _normal(code)
    if len(normal) != GROUPS * GROUP_LENGTH:
        return False
    spent = db.session.execute(
        update(RecoveryCode)
        .where(
            RecoveryCode.tenant_id == user.tenant_id,
            RecoveryCode.user_id == user.id,
            RecoveryCode.code_digest == sealing.keyed_digest(normal, PURPOSE),
            RecoveryCode.used_at.is_(None),
        )
        .values(used_at=clock.now())
        .execution_options(synchronize_session=False)
    )
    if not spent.rowcount:
        return False
    audit_log.record(
        user.tenant_id,
        actor,
        "mfa.recovery_code_used",
        target_type="user",
        target_id=user.id,
        details={"left": left(user)},
    )
    return True

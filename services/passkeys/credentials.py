"""A user's registered passkeys: list, find, rename and remove, each change audited. Flushes;
the caller commits."""

from __future__ import annotations

import unicodedata

from sqlalchemy import select

from errors import DomainError, not_found
from extensions import db
from models import Passkey, User
from services.audit import audit_log
from services.core.actors import Actor

NAME_MAX = 100


def list_for_user(user: User) -> list[Passkey]:
    return list(
        db.session.scalars(
            Passkey.query_for_tenant(user.tenant_id)
            .where(Passkey.user_id == user.id)
            .order_by(Passkey.created_at, Passkey.id)
        )
    )


def find(credential_id: str) -> Passkey | None:
    """The passkey with this credential id (base64url), in whichever tenant holds it."""
    return db.session.scalar(select(Passkey).where(Passkey.credential_id == credential_id))


def get_own(passkey_id: str, user: User) -> Passkey:
    """One of the user's own passkeys; anyone else's (same tenant or not) is a 404."""
    passkey = Passkey.get_for_tenant(passkey_id, user.tenant_id)
    if passkey.user_id != user.id:
        raise not_found(Passkey.__not_found_label__)
    return passkey


def clean_name(name: str) -> str:
    """A label for people: trimmed, 1 to 100 characters, no control characters."""
    cleaned = " ".join((name or "").split())
    if not cleaned or len(cleaned) > NAME_MAX:
        raise DomainError(
            422,
            "VALIDATION_ERROR",
            f"Give the passkey a name of 1 to {NAME_MAX} characters.",
            "name",
        )
    if any(unicodedata.category(c).startswith("C") for c in cleaned):
        raise DomainError(422, "VALIDATION_ERROR", "The name holds control characters.", "name")
    return cleaned


def rename(passkey: Passkey, name: str, actor: Actor) -> Passkey:
    new_name = clean_name(name)
    old_name, passkey.name = passkey.name, new_name
    db.session.flush()
    audit_log.record(
        passkey.tenant_id,
        actor,
        "passkey.renamed",
        target_type="passkey",
        target_id=passkey.id,
        details={"userId": passkey.user_id, "from": old_name, "to": new_name},
    )
    return passkey


def remove(passkey: Passkey, actor: Actor) -> None:
    """Delete the passkey: the authenticator still holds its key, but it signs nobody in."""
    details = {"userId": passkey.user_id, "name": passkey.name}
    tenant_id, passkey_id = passkey.tenant_id, passkey.id
    db.session.delete(passkey)
    db.session.flush()
    audit_log.record(
        tenant_id,
        actor,
        "passkey.removed",
        target_type="passkey",
        target_id=passkey_id,
        details=details,
    )

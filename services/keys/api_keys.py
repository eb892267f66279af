"""API key lifecycle (create, rotate, revoke, edit) and authenticating a presented secret."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import zlib
from datetime import datetime

from sqlalchemy import or_, select, update
from sqlalchemy.orm import contains_eager

import clock
from errors import FieldError, conflict, validation_failed
from extensions import db
from models import ApiKey, Tenant
from models.keys import LAST_USED_RESOLUTION
from services.accounts import roles
from services.audit import audit_log
from services.core import events
from services.core.actors import Actor
from services.keys.allowlists import parse_allowlist

SECRET_PREFIX = "dms_"  # noqa: S105  (a public prefix, not a secret)
_B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_BODY_LEN = 43  # 32 random bytes in base62
_CHECK_LEN = 6  # CRC32 in base62, lets scanners and us reject typos without a lookup
_SECRET_RE = re.compile(rf"^{SECRET_PREFIX}[0-9A-Za-z]{{{_BODY_LEN + _CHECK_LEN}}}$")
MAX_NAME_LENGTH = 100
MAX_QUOTA = 1_000_000_000  # fits the 32-bit column; far above any plan


def _base62(value: int, width: int) -> str:
    out = []
    for _ in range(width):
        value, rem = divmod(value, 62)
        out.append(_B62[rem])
    return "".join(reversed(out))


def generate_secret() -> str:
    body = _base62(int.from_bytes(secrets.token_bytes(32), "big"), _BODY_LEN)
    return f"{SECRET_PREFIX}{body}{_base62(zlib.crc32(body.encode()), _CHECK_LEN)}"


def secret_well_formed(secret: str) -> bool:
    if not _SECRET_RE.match(secret):
        return False
    body, check = secret[len(SECRET_PREFIX) : -_CHECK_LEN], secret[-_CHECK_LEN:]
    return hmac.compare_digest(_base62(zlib.crc32(body.encode()), _CHECK_LEN), check)


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def find_by_digest(digest: str) -> ApiKey | None:
    """The key whose secret hashes to `digest`, with its tenant loaded in the same query."""
    key = db.session.scalar(
        select(ApiKey)
        .join(ApiKey.tenant)
        .options(contains_eager(ApiKey.tenant))
        .where(ApiKey.secret_hash == digest)
    )
    if key is None or not hmac.compare_digest(key.secret_hash, digest):
        return None
    return key


def _validate(
    tenant_id: str,
    *,
    name: str | None,
    scopes: list[str] | None,
    allowed_ips: list[str] | str | None,
    hourly_quota: int | None,
    exclude_id: str | None = None,
) -> tuple[list[str] | None, list[str] | None]:
    """Check every field at once; return normalised (scopes, cidrs) or raise one 422."""
    errors: list[FieldError] = []
    if name is not None:
        if not name.strip():
            errors.append(FieldError("VALIDATION_ERROR", "Name is required.", "name"))
        elif len(name) > MAX_NAME_LENGTH:
            errors.append(
                FieldError(
                    "VALIDATION_ERROR", f"Name is at most {MAX_NAME_LENGTH} characters.", "name"
                )
            )
        elif _live_name_taken(tenant_id, name.strip(), exclude_id):
            errors.append(
                FieldError("VALIDATION_ERROR", f"An active key is already named {name!r}.", "name")
            )
    clean_scopes = None
    if scopes is not None:
        clean_scopes, scope_errors = roles.checked_scopes(scopes)
        errors.extend(scope_errors)
    cidrs = None
    if allowed_ips is not None:
        cidrs, ip_errors = parse_allowlist(allowed_ips)
        errors.extend(ip_errors)
    if hourly_quota is not None and not 1 <= hourly_quota <= MAX_QUOTA:
        errors.append(
            FieldError(
                "VALIDATION_ERROR", f"Hourly quota must be 1 to {MAX_QUOTA:,}.", "hourlyQuota"
            )
        )
    if errors:
        raise validation_failed(errors)
    return clean_scopes, cidrs


def _live_name_taken(tenant_id: str, name: str, exclude_id: str | None) -> bool:
    stmt = select(ApiKey.id).where(
        ApiKey.tenant_id == tenant_id, ApiKey.name == name, ApiKey.revoked_at.is_(None)
    )
    if exclude_id:
        stmt = stmt.where(ApiKey.id != exclude_id)
    return db.session.scalar(stmt) is not None


def create_key(
    tenant: Tenant,
    name: str,
    scopes: list[str],
    actor: Actor,
    *,
    allowed_ips: list[str] | str | None = None,
    hourly_quota: int | None = None,
    predecessor: ApiKey | None = None,
) -> tuple[ApiKey, str]:
    """Create a key; returns it with its secret, which is never retrievable again."""
    clean_scopes, cidrs = _validate(
        tenant.id,
        name=name,
        scopes=scopes,
        allowed_ips=allowed_ips or [],
        hourly_quota=hourly_quota,
    )
    secret = generate_secret()
    key = ApiKey(
        tenant_id=tenant.id,
        name=name.strip(),
        secret_hash=hash_secret(secret),
        secret_hint=secret[-4:],
        scopes=clean_scopes,
        allowed_ips=cidrs,
        hourly_quota=hourly_quota,
        created_by=actor.ref,
        predecessor_id=predecessor.id if predecessor else None,
    )
    db.session.add(key)
    db.session.flush()
    details = {"name": key.name, "scopes": key.scopes, "allowedIps": key.allowed_ips}
    if predecessor is None:
        audit_log.record(
            tenant.id,
            actor,
            "api_key.created",
            target_type="api_key",
            target_id=key.id,
            details=details,
        )
        events.emit(tenant.id, "api_key.created", {"keyId": key.id, **details})
    return key, secret


def rotate_key(key: ApiKey, actor: Actor) -> tuple[ApiKey, str]:
    """Spec 5.1.8 step (a): a successor with the same scopes, allowlist and quota.

    The old key stays active: callers switch over, then someone revokes it (steps b, c).
    """
    if not key.is_active:
        raise conflict("A revoked key cannot be rotated.")
    if key.successors and any(s.is_active for s in key.successors):
        raise conflict("This key already has an active successor; revoke one of them first.")
    successor, secret = create_key(
        db.session.get(Tenant, key.tenant_id),
        _successor_name(key),
        list(key.scopes),
        actor,
        allowed_ips=list(key.allowed_ips),
        hourly_quota=key.hourly_quota,
        predecessor=key,
    )
    key.rotated_at = clock.now()
    audit_log.record(
        key.tenant_id,
        actor,
        "api_key.rotated",
        target_type="api_key",
        target_id=key.id,
        details={"successorId": successor.id, "successorName": successor.name},
    )
    events.emit(key.tenant_id, "api_key.rotated", {"keyId": key.id, "successorId": successor.id})
    return successor, secret


_ROTATED_SUFFIX = re.compile(r" \(rotated [0-9-]+(?: #\d+)?\)$")


def _successor_name(key: ApiKey) -> str:
    base = _ROTATED_SUFFIX.sub("", key.name)
    name = f"{base} (rotated {clock.now():%Y-%m-%d})"
    n = 2
    while _live_name_taken(key.tenant_id, name, None) or len(name) > MAX_NAME_LENGTH:
        name = f"{base[: MAX_NAME_LENGTH - 30]} (rotated {clock.now():%Y-%m-%d} #{n})"
        n += 1
    return name


def reissue_secret(key: ApiKey, actor: Actor) -> str:
    """A new secret for the same key, which keeps its id, name, scopes, allowlist, quota and
    history; the old secret stops working on the very next request (the row changed: every
    process reads it again). For a key the operator's tooling re-issues on every run (the
    quick start's), where a successor per run would only pile up revoked rows."""
    if not key.is_active:
        raise conflict("A revoked key cannot be given a new secret.")
    secret = generate_secret()
    key.secret_hash = hash_secret(secret)
    key.secret_hint = secret[-4:]
    audit_log.record(
        key.tenant_id,
        actor,
        "api_key.secret_reissued",
        target_type="api_key",
        target_id=key.id,
        details={"name": key.name},
    )
    return secret


def revoke_key(key: ApiKey, actor: Actor) -> None:
    """Effective on the very next request: authentication reads revoked_at every time."""
    if not key.is_active:
        raise conflict("This key is already revoked.")
    key.revoked_at = clock.now()
    key.revoked_by = actor.ref
    audit_log.record(
        key.tenant_id,
        actor,
        "api_key.revoked",
        target_type="api_key",
        target_id=key.id,
        details={"name": key.name},
    )
    events.emit(key.tenant_id, "api_key.revoked", {"keyId": key.id})


_UNSET = object()


def update_key(
    key: ApiKey,
    actor: Actor,
    *,
    name: str | None = None,
    allowed_ips: list[str] | str | None = None,
    hourly_quota: int | object | None = _UNSET,
) -> None:
    """Change name, allowlist or quota (scopes never change: rotate into a new key instead)."""
    if not key.is_active:
        raise conflict("A revoked key cannot be changed.")
    _, cidrs = _validate(
        key.tenant_id,
        name=name,
        scopes=None,
        allowed_ips=allowed_ips,
        hourly_quota=None if hourly_quota is _UNSET else hourly_quota,  # type: ignore[arg-type]
        exclude_id=key.id,
    )
    changes: dict[str, object] = {}
    if name is not None and name.strip() != key.name:
        changes["name"] = [key.name, name.strip()]
        key.name = name.strip()
    if cidrs is not None and cidrs != key.allowed_ips:
        changes["allowedIps"] = [key.allowed_ips, cidrs]
        key.allowed_ips = cidrs
    if hourly_quota is not _UNSET and hourly_quota != key.hourly_quota:
        changes["hourlyQuota"] = [key.hourly_quota, hourly_quota]
        key.hourly_quota = hourly_quota  # type: ignore[assignment]
    if changes:
        audit_log.record(
            key.tenant_id,
            actor,
            "api_key.updated",
            target_type="api_key",
            target_id=key.id,
            details=changes,
        )


def record_use_of(key_id: str, tenant_id: str, ip: str) -> None:
    """`record_use` for a key known by id (authentication remembers keys, not rows); nothing
    when the key went with its tenant since it was remembered."""
    key = db.session.scalar(
        select(ApiKey).where(ApiKey.id == key_id, ApiKey.tenant_id == tenant_id)
    )
    if key is not None:
        record_use(key, ip)


def record_use(key: ApiKey, ip: str) -> None:
    """Coalesced last-used bookkeeping: at most one UPDATE per key per minute, and an
    `api_key.used` audit entry the first time a key is used on a given day. Flushes; the
    caller commits."""
    now = clock.now()
    previous: datetime | None = key.last_used_at
    if previous is not None and now - previous < LAST_USED_RESOLUTION:
        return
    cutoff = now - LAST_USED_RESOLUTION
    # Conditional, so concurrent requests in several processes write once between them.
    result = db.session.execute(
        update(ApiKey)
        .where(
            ApiKey.id == key.id,
            or_(ApiKey.last_used_at.is_(None), ApiKey.last_used_at < cutoff),
        )
        .values(last_used_at=now, last_used_ip=ip)
        .execution_options(synchronize_session=False)
    )
    if result.rowcount != 1:
        return  # another request recorded this minute already
    if previous is None or previous.date() != now.date():
        audit_log.record(
            key.tenant_id,
            Actor("key", key.id, key.name, ip),
            "api_key.used",
            target_type="api_key",
            target_id=key.id,
            details={"firstUseToday": True},
        )


def list_keys(tenant_id: str) -> list[ApiKey]:
    return list(
        db.session.scalars(ApiKey.query_for_tenant(tenant_id).order_by(ApiKey.created_at.desc()))
    )

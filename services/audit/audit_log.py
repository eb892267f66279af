"""Writing and verifying the audit log: append-only, chained per tenant, sealed with a key."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, datetime

from flask import current_app
from sqlalchemy import select, update

import clock
from extensions import db
from models import AuditEntry, Tenant
from services.core.actors import Actor

GENESIS_HASH = "0" * 64


def record(
    tenant_id: str,
    actor: Actor,
    action: str,
    *,
    target_type: str | None = None,
    target_id: str | None = None,
    details: dict | None = None,
) -> AuditEntry:
    """Append an entry in the caller's transaction (so it commits or rolls back with the change)."""
    key_id = sealing_key_id()
    seq = db.session.execute(
        update(Tenant)
        .where(Tenant.id == tenant_id)
        .values(audit_seq=Tenant.audit_seq + 1)
        .returning(Tenant.audit_seq)
        .execution_options(synchronize_session=False)
    ).scalar_one()
    prev_hash = (
        db.session.scalar(
            select(AuditEntry.hash).where(
                AuditEntry.tenant_id == tenant_id, AuditEntry.seq == seq - 1
            )
        )
        or GENESIS_HASH
    )
    entry = AuditEntry(
        tenant_id=tenant_id,
        seq=seq,
        actor_type=actor.type,
        actor_id=actor.id,
        actor_label=actor.label,
        action=action,
        target_type=target_type,
        target_id=target_id,
        ip=actor.ip,
        user_agent=(actor.user_agent or None) and actor.user_agent[:300],
        details=details or {},
        created_at=clock.now(),
        prev_hash=prev_hash,
        key_id=key_id,
    )
    entry.hash = entry_hash(entry)
    db.session.add(entry)
    db.session.flush()
    return entry


def sealing_key_id() -> str:
    """The audit key that seals new entries: the first of DMS_AUDIT_KEYS (config.py)."""
    return next(iter(current_app.config["DMS_AUDIT_KEYS"]))


class UnknownAuditKey(LookupError):
    """An entry names an audit key that is not configured (removed too early, or forged)."""


def entry_hash(entry: AuditEntry) -> str:
    """The seal an entry should carry: HMAC-SHA256 with the audit key it names, or plain
    SHA-256 for an entry from before the chain was keyed (key_id None)."""
    canonical = _canonical(entry)
    if entry.key_id is None:
        return hashlib.sha256(canonical).hexdigest()
    secret = current_app.config["DMS_AUDIT_KEYS"].get(entry.key_id)
    if secret is None:
        raise UnknownAuditKey(entry.key_id)
    return hmac.new(secret, canonical, hashlib.sha256).hexdigest()


def _canonical(entry: AuditEntry) -> bytes:
    """Every recorded field and the previous entry's hash, as canonical JSON."""
    payload = {
        "seq": entry.seq,
        "tenant": entry.tenant_id,
        "actorType": entry.actor_type,
        "actorId": entry.actor_id,
        "actorLabel": entry.actor_label,
        "action": entry.action,
        "targetType": entry.target_type,
        "targetId": entry.target_id,
        "ip": entry.ip,
        "userAgent": entry.user_agent,
        "details": entry.details,
        "createdAt": _canonical_time(entry.created_at),
        "prev": entry.prev_hash,
    }
    if entry.key_id is not None:
        # Unkeyed entries keep the payload they were sealed with; keyed ones also seal the key id.
        payload["key"] = entry.key_id
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return canonical.encode()


def _canonical_time(value: datetime) -> str:
    return value.astimezone(UTC).isoformat(timespec="microseconds")


def record_support_view(tenant_id: str, staff: Actor, filters: dict[str, str]) -> AuditEntry:
    """CONTRACT §3: each support read of a tenant's log is itself written to that log."""
    return record(
        tenant_id,
        staff,
        "support.audit_viewed",
        target_type="tenant",
        target_id=tenant_id,
        details={"filters": filters},
    )


@dataclass
class ChainReport:
    ok: bool
    checked: int
    broken_seq: int | None = None
    reason: str | None = None


def verify_chain(tenant_id: str, anchors: Mapping[int, str] | None = None) -> ChainReport:
    """Walk the tenant's chain in order; report the first entry that does not verify, then
    whether the chain is as long as the tenant's counter and every anchor (seq -> hash) says."""
    anchors = anchors or {}
    # Read before the walk: every entry up to this count had committed when it was read.
    counted = _audit_seq(tenant_id)
    stmt = (
        select(AuditEntry)
        .where(AuditEntry.tenant_id == tenant_id)
        .order_by(AuditEntry.seq)
        .execution_options(yield_per=500)
    )
    checked = 0
    prev_hash = GENESIS_HASH
    keyed = False
    # Streamed in batches (a server-side cursor on PostgreSQL), closed even on an early return.
    with closing(db.session.scalars(stmt)) as entries:
        for entry in entries:
            checked += 1
            if entry.seq != checked:
                return ChainReport(False, checked, checked, f"entry #{checked} is missing")
            reason = _entry_problem(entry, prev_hash, keyed, anchors.get(entry.seq))
            if reason:
                return ChainReport(False, checked, entry.seq, reason)
            keyed = keyed or entry.key_id is not None
            prev_hash = entry.hash
    return _check_length(tenant_id, checked, counted, max(anchors, default=0))


def _entry_problem(
    entry: AuditEntry, prev_hash: str, keyed: bool, anchored_hash: str | None
) -> str | None:
    if entry.prev_hash != prev_hash:
        return "link to the previous entry is broken"
    if entry.key_id is None and keyed:
        # Only entries from before the upgrade may be unkeyed: this is a downgrade forgery.
        return "sealed without a key after keyed entries"
    try:
        expected = entry_hash(entry)
    except UnknownAuditKey:
        return f"sealed with unknown key {entry.key_id}"
    if not hmac.compare_digest(expected, entry.hash):
        return "contents do not match the hash"
    if anchored_hash is not None and anchored_hash != entry.hash:
        return "hash differs from the anchor taken of this entry"
    return None


def _check_length(tenant_id: str, checked: int, counted: int, anchored: int) -> ChainReport:
    """Deleting from the end leaves every link intact; the counter and anchors still know."""
    expected = max(counted, anchored)
    if checked < expected:
        first = checked + 1
        missing = f"entry {first} is" if first == expected else f"entries {first}..{expected} are"
        note = f" (anchored at #{anchored})" if anchored > counted else ""
        return ChainReport(False, checked, first, f"{missing} missing at the end{note}")
    # More entries than the counter: re-read it, since writers may have committed meanwhile.
    if checked > counted and checked > (counted := _audit_seq(tenant_id)):
        return ChainReport(
            False,
            checked,
            counted + 1,
            f"the tenant's audit counter is {counted} but the chain runs to {checked}",
        )
    return ChainReport(True, checked)


def _audit_seq(tenant_id: str) -> int:
    return db.session.scalar(select(Tenant.audit_seq).where(Tenant.id == tenant_id)) or 0

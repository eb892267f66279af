"""Writing and verifying the audit log: append-only, chained per tenant, sealed with a key."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

from flask import current_app
from sqlalchemy import select, update

import clock
from extensions import db
from models import AuditEntry, Tenant
from services.core.actors import Actor

GENESIS_HASH = "0" * 64


@dataclass(frozen=True)
class Change:
    """What one audit entry says happened, before it is sealed into the chain."""

    action: str
    target_type: str | None = None
    target_id: str | None = None
    details: dict | None = None


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
    return record_many(tenant_id, actor, [Change(action, target_type, target_id, details)])[0]


def record_many(tenant_id: str, actor: Actor, changes: list[Change]) -> list[AuditEntry]:
    """Append one entry per change, in order, in the caller's transaction: the chain's head is
    read and sealed once for all of them (a bulk edit's batch)."""
    if not changes:
        return []
    key_id = sealing_key_id()
    # Taking the positions locks the tenant row until the commit: chains never fork.
    last, keyed_since = db.session.execute(
        update(Tenant)
        .where(Tenant.id == tenant_id)
        .values(audit_seq=Tenant.audit_seq + len(changes))
        .returning(Tenant.audit_seq, Tenant.audit_keyed_since)
        .execution_options(synchronize_session=False)
    ).one()
    seq = last - len(changes)
    prev_hash = (
        db.session.scalar(
            select(AuditEntry.hash).where(AuditEntry.tenant_id == tenant_id, AuditEntry.seq == seq)
        )
        or GENESIS_HASH
    )
    now = clock.now()
    entries = []
    for change in changes:
        seq += 1
        entry = AuditEntry(
            tenant_id=tenant_id,
            seq=seq,
            actor_type=actor.type,
            actor_id=actor.id,
            actor_label=actor.label,
            action=change.action,
            target_type=change.target_type,
            target_id=change.target_id,
            ip=actor.ip,
            user_agent=(actor.user_agent or None) and actor.user_agent[:300],
            details=change.details or {},
            created_at=now,
            prev_hash=prev_hash,
            key_id=key_id,
        )
        entry.hash = prev_hash = entry_hash(entry)
        entries.append(entry)
    db.session.add_all(entries)
    db.session.flush()
    # The new head is sealed in the same transaction, under the row lock taken above.
    db.session.execute(
        update(Tenant)
        .where(Tenant.id == tenant_id)
        .values(
            audit_head_seal=head_seal(tenant_id, seq, prev_hash, keyed_since, key_id),
            audit_head_key=key_id,
        )
        .execution_options(synchronize_session=False)
    )
    return entries


def sealing_key_id() -> str:
    """The audit key that seals new entries: the first of DMS_AUDIT_KEYS (config.py)."""
    return next(iter(current_app.config["DMS_AUDIT_KEYS"]))


class UnknownAuditKey(LookupError):
    """An entry names an audit key that is not configured (removed too early, or forged)."""


def entry_hash(
    entry: SealedFields, *, tenant_id: str | None = None, keys: Mapping[str, bytes] | None = None
) -> str:
    """The seal an entry should carry: HMAC-SHA256 with the audit key it names, or plain
    SHA-256 for an entry from before the chain was keyed (key_id None). An archived entry
    (services/audit/imported.py) passes the tenant it was sealed for and the keys to use."""
    canonical = _canonical(entry, tenant_id or entry.tenant_id)
    if entry.key_id is None:
        return hashlib.sha256(canonical).hexdigest()
    return _hmac(entry.key_id, canonical, keys)


def head_seal(tenant_id: str, seq: int, head_hash: str, keyed_since: int, key_id: str) -> str:
    """The seal kept on the tenant row over the chain's length, its newest hash and the
    position from which entries must be keyed; its own payload, so no entry's seal is one."""
    payload = {
        "purpose": "audit-head",
        "tenant": tenant_id,
        "seq": seq,
        "head": head_hash,
        "keyedSince": keyed_since,
    }
    return _hmac(key_id, json.dumps(payload, sort_keys=True, separators=(",", ":")).encode())


def _hmac(key_id: str, payload: bytes, keys: Mapping[str, bytes] | None = None) -> str:
    secret = (current_app.config["DMS_AUDIT_KEYS"] if keys is None else keys).get(key_id)
    if secret is None:
        raise UnknownAuditKey(key_id)
    return hmac.new(secret, payload, hashlib.sha256).hexdigest()


class SealedFields(Protocol):
    """What a seal covers: an AuditEntry, or an archived one (ImportedAuditEntry)."""

    tenant_id: str
    seq: int
    actor_type: str
    actor_id: str | None
    actor_label: str | None
    action: str
    target_type: str | None
    target_id: str | None
    ip: str | None
    user_agent: str | None
    details: dict
    created_at: datetime
    prev_hash: str
    key_id: str | None


def _canonical(entry: SealedFields, tenant_id: str) -> bytes:
    """Every recorded field and the previous entry's hash, as canonical JSON."""
    payload = {
        "seq": entry.seq,
        "tenant": tenant_id,
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
    whether the chain is as long as the tenant's counter and every anchor (seq -> hash) says,
    and whether its head is the one sealed on the tenant row."""
    anchors = anchors or {}
    # Read before the walk, in one row: every entry up to this count had committed when it
    # was read, and the head seal was written with that count.
    state = db.session.execute(
        select(
            Tenant.audit_seq, Tenant.audit_keyed_since, Tenant.audit_head_seal,
            Tenant.audit_head_key,
        ).where(Tenant.id == tenant_id)
    ).first()  # fmt: skip
    counted = state.audit_seq if state else 0
    keyed_since = state.audit_keyed_since if state else 1
    stmt = (
        select(AuditEntry)
        .where(AuditEntry.tenant_id == tenant_id)
        .order_by(AuditEntry.seq)
        .execution_options(yield_per=500)
    )
    checked = 0
    prev_hash = head_hash = GENESIS_HASH
    keyed = False
    # Streamed in batches (a server-side cursor on PostgreSQL), closed even on an early return.
    with closing(db.session.scalars(stmt)) as entries:
        for entry in entries:
            checked += 1
            if entry.seq != checked:
                return ChainReport(False, checked, checked, f"entry #{checked} is missing")
            reason = _entry_problem(entry, prev_hash, keyed, keyed_since, anchors.get(entry.seq))
            if reason:
                return ChainReport(False, checked, entry.seq, reason)
            keyed = keyed or entry.key_id is not None
            prev_hash = entry.hash
            if entry.seq == counted:
                head_hash = entry.hash
    report = _check_length(tenant_id, checked, counted, max(anchors, default=0))
    if not report.ok or state is None:
        return report
    return _check_head(tenant_id, checked, counted, head_hash, state)


def _entry_problem(
    entry: AuditEntry, prev_hash: str, keyed: bool, keyed_since: int, anchored_hash: str | None
) -> str | None:
    if entry.prev_hash != prev_hash:
        return "link to the previous entry is broken"
    if entry.key_id is None and keyed:
        # Only entries from before the upgrade may be unkeyed: this is a downgrade forgery.
        return "sealed without a key after keyed entries"
    if entry.key_id is None and entry.seq >= keyed_since:
        # A tenant keyed from its first entry has no genuine unkeyed one: a whole chain
        # re-sealed the pre-key way.
        return f"sealed without a key, but the tenant's chain is keyed from #{keyed_since}"
    try:
        expected = entry_hash(entry)
    except UnknownAuditKey:
        return f"sealed with unknown key {entry.key_id}"
    if not hmac.compare_digest(expected, entry.hash):
        return "contents do not match the hash"
    if anchored_hash is not None and anchored_hash != entry.hash:
        return "hash differs from the anchor taken of this entry"
    return None


def _check_head(tenant_id: str, checked: int, counted: int, head_hash: str, state) -> ChainReport:
    """Entries cut from the end with the counter lowered to match leave a chain that is whole
    on its own; the seal on the tenant row still names the head it had."""
    first_after = counted + 1
    if state.audit_head_seal is None or state.audit_head_key is None:
        return ChainReport(False, checked, first_after, "the tenant row has no head seal")
    try:
        expected = head_seal(
            tenant_id, counted, head_hash, state.audit_keyed_since, state.audit_head_key
        )
    except UnknownAuditKey:
        return ChainReport(
            False, checked, first_after, f"the head seal names unknown key {state.audit_head_key}"
        )
    if not hmac.compare_digest(expected, state.audit_head_seal):
        return ChainReport(
            False,
            checked,
            first_after,
            f"the tenant's head seal does not match entry #{counted}: entries after it were "
            "removed, or the tenant's audit counter or keyed-since was changed",
        )
    return ChainReport(True, checked)


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

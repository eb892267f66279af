"""Writing and verifying the audit log: append-only, hash-chained per tenant."""

from __future__ import annotations

import hashlib
import json
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import select, update

import clock
from extensions import db
from models import AuditEntry, Tenant
from services.actors import Actor

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
    )
    entry.hash = entry_hash(entry)
    db.session.add(entry)
    db.session.flush()
    return entry


def entry_hash(entry: AuditEntry) -> str:
    """SHA-256 over every recorded field and the previous entry's hash."""
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
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _canonical_time(value: datetime) -> str:
    return value.astimezone(UTC).isoformat(timespec="microseconds")


@dataclass
class ChainReport:
    ok: bool
    checked: int
    broken_seq: int | None = None
    reason: str | None = None


def verify_chain(tenant_id: str) -> ChainReport:
    """Walk the tenant's chain in order; report the first entry that does not verify."""
    stmt = (
        select(AuditEntry)
        .where(AuditEntry.tenant_id == tenant_id)
        .order_by(AuditEntry.seq)
        .execution_options(yield_per=500)
    )
    checked = 0
    prev_hash = GENESIS_HASH
    # Streamed in batches (a server-side cursor on PostgreSQL), closed even on an early return.
    with closing(db.session.scalars(stmt)) as entries:
        for entry in entries:
            checked += 1
            if entry.seq != checked:
                return ChainReport(False, checked, checked, f"entry #{checked} is missing")
            if entry.prev_hash != prev_hash:
                return ChainReport(
                    False, checked, entry.seq, "link to the previous entry is broken"
                )
            if entry_hash(entry) != entry.hash:
                return ChainReport(False, checked, entry.seq, "contents do not match the hash")
            prev_hash = entry.hash
    return ChainReport(True, checked)

"""Audit chains a tenant brought from another installation (docs/tenant-archive.md).

Their seals are HMACs with the source's audit key. Where that key is configured here too (the
same operator's, declared by the fingerprint the archive carries), each entry's contents are
checked against its seal; an entry from before keyed chains (plain SHA-256) is checked
everywhere; and wherever the key is missing, what does not need it is checked: gapless
positions from 1, every link to the previous entry's hash, no unkeyed entry after a keyed
one or from the source's keyed-since on, and the chain's length and head hash equal to what
the `tenant.imported` entry recorded; that entry is in the live chain, sealed with this
installation's key. A chain imported twice (exported again after an import) is reached the
same way through the archived `tenant.imported` entry."""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from dataclasses import dataclass, field

from sqlalchemy import select

from extensions import db
from models import AuditEntry, ImportedAuditEntry
from services.audit import audit_log, signing

GENESIS_HASH = "0" * 64
IMPORTED = "tenant.imported"


@dataclass
class ImportedReport:
    ok: bool
    checked: int
    imports: int
    reason: str | None = None


def verify_imported(tenant_id: str) -> ImportedReport:
    """Check every imported chain of the tenant against the import entry that names it."""
    expected: dict[str, dict] = {}
    for details in _import_details(tenant_id):
        import_id = details.get("importId")
        if isinstance(import_id, str):
            expected[import_id] = details
    rows = db.session.scalars(
        select(ImportedAuditEntry)
        .where(ImportedAuditEntry.tenant_id == tenant_id)
        .order_by(ImportedAuditEntry.import_id, ImportedAuditEntry.seq)
    ).all()
    chains: dict[str, list[ImportedAuditEntry]] = {}
    for row in rows:
        chains.setdefault(row.import_id, []).append(row)
    for import_id in sorted(set(chains) - set(expected)):
        return ImportedReport(False, 0, len(expected), f"import {import_id} has no import entry")
    for import_id, details in sorted(expected.items()):
        reason = _chain_problem(chains.get(import_id, []), details)
        if reason:
            return ImportedReport(False, len(rows), len(expected), f"import {import_id}: {reason}")
    return ImportedReport(True, len(rows), len(expected))


def _import_details(tenant_id: str) -> list[dict]:
    live = db.session.scalars(
        select(AuditEntry.details).where(
            AuditEntry.tenant_id == tenant_id, AuditEntry.action == IMPORTED
        )
    )
    archived = db.session.scalars(
        select(ImportedAuditEntry.details).where(
            ImportedAuditEntry.tenant_id == tenant_id, ImportedAuditEntry.action == IMPORTED
        )
    )
    return [d for d in [*live, *archived] if isinstance(d, dict)]


@dataclass
class ChainCheck:
    """One archived chain checked entry by entry, in order (at import and at verify)."""

    keys: Mapping[str, bytes]
    keyed_since: int | None = None
    prev: str = GENESIS_HASH
    count: int = 0
    keyed: bool = False
    sealed_with: set[str] = field(default_factory=set)
    # key id -> entries sealed with it whose contents could not be checked (no such key here)
    unchecked: dict[str, int] = field(default_factory=dict)

    def problem(self, entry: audit_log.SealedFields, source_tenant: str) -> str | None:
        self.count += 1
        position = self.count
        if entry.seq != position:
            return f"entry #{position} is missing"
        if entry.prev_hash != self.prev:
            return f"entry #{position}: link to the previous entry is broken"
        if entry.key_id is None and (
            self.keyed or (isinstance(self.keyed_since, int) and position >= self.keyed_since)
        ):
            return f"entry #{position}: sealed without a key where the chain is keyed"
        if entry.key_id is not None and entry.key_id not in self.keys:
            self.unchecked[entry.key_id] = self.unchecked.get(entry.key_id, 0) + 1
        else:
            expected = audit_log.entry_hash(entry, tenant_id=source_tenant, keys=self.keys)
            if not hmac.compare_digest(expected, str(entry.hash)):
                return f"entry #{position}: contents do not match its hash"
        if entry.key_id is not None:
            self.keyed = True
            self.sealed_with.add(entry.key_id)
        self.prev = entry.hash
        return None


def _chain_problem(chain: list[ImportedAuditEntry], details: dict) -> str | None:
    # Only the keys the import checked with, by fingerprint: an id alone may name another key.
    keys = signing.matching_keys(details.get("keys"), by_id=False)
    check = ChainCheck(keys, details.get("keyedSince"))
    for entry in chain:
        reason = check.problem(entry, entry.source_tenant_id)
        if reason:
            return reason
    if len(chain) != details.get("entries"):
        return f"{len(chain)} entries, the import recorded {details.get('entries')}"
    if check.prev != details.get("head"):
        return "the head hash differs from the one the import recorded"
    return None

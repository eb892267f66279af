"""Audit chains a tenant brought from another installation (docs/tenant-archive.md).

Their seals are HMACs with the source's audit key, which this installation does not have (and
must not: with it, rows could be re-sealed). So an imported chain is checked by what does not
need the key: gapless positions from 1, every link to the previous entry's hash, and its
length and head hash equal to what the `tenant.imported` entry recorded; that entry is in the
live chain, sealed with this installation's key. A chain imported twice (exported again after
an import) is reached the same way through the archived `tenant.imported` entry."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from extensions import db
from models import AuditEntry, ImportedAuditEntry

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


def _chain_problem(chain: list[ImportedAuditEntry], details: dict) -> str | None:
    prev = GENESIS_HASH
    for position, entry in enumerate(chain, 1):
        if entry.seq != position:
            return f"entry #{position} is missing"
        if entry.prev_hash != prev:
            return f"entry #{position}: link to the previous entry is broken"
        prev = entry.hash
    if len(chain) != details.get("entries"):
        return f"{len(chain)} entries, the import recorded {details.get('entries')}"
    if prev != details.get("head"):
        return "the head hash differs from the one the import recorded"
    return None

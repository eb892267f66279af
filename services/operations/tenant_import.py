"""`flask tenants import FILE [--slug NEW]`: a tenant archive loaded into this installation
(docs/tenant-archive.md). Ids are kept (prefixed ULIDs: 80 random bits each, so two
installations never mint the same one); an archive whose ids are already here (its source
tenant is in this installation, or it was imported before) is refused whole, naming the
tenant that holds them. The manifest's signature is checked when its key is configured here
(and the import warns when it cannot be). The audit chain arrives as an archived chain, each
entry checked against its link and its seal, and the live chain starts with a
`tenant.imported` entry, sealed here, that names it (services/audit/imported.py)."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from types import SimpleNamespace

from sqlalchemy import Table, insert, select
from sqlalchemy.exc import IntegrityError

from errors import DomainError
from extensions import db
from models import Document, ImportedAuditEntry, Tenant
from models.accounts import SLUG_PATTERN
from models.base import new_id
from services.audit import audit_log, signing
from services.audit.imported import IMPORTED, ChainCheck
from services.core import transaction
from services.core.actors import Actor
from services.documents.blobs import blob_store, delete_if_unused
from services.keys import key_cache
from services.operations import archive
from services.operations.backup import Progress, no_progress
from services.operations.tenant_tables import ARCHIVE_DEFAULTS, tenant_tables
from services.search import indexing

_BATCH = 500
_AUDIT_FIELDS = (
    "seq", "actor_type", "actor_id", "actor_label", "action", "target_type", "target_id", "ip",
    "user_agent", "details", "created_at", "prev_hash", "hash", "key_id",
)  # fmt: skip


@dataclass
class ImportReport:
    tenant_id: str
    rows: dict[str, int] = field(default_factory=dict)
    blobs: int = 0
    audit_entries: int = 0
    notes: list[str] = field(default_factory=list)
    # What could not be authenticated (docs/tenant-archive.md, "Signature").
    warnings: list[str] = field(default_factory=list)


def import_tenant(
    path: Path,
    *,
    slug: str | None = None,
    expected_sha256: str | None = None,
    progress: Progress = no_progress,
) -> ImportReport:
    path = Path(path)
    archive_sha = _sha256_of(path)
    if expected_sha256 and archive_sha != expected_sha256.lower():
        raise archive.invalid("its sha256 is not the one given with --sha256")
    reader = archive.ArchiveReader(path)
    try:
        manifest = reader.manifest
        trust = _authenticate(manifest, pinned=bool(expected_sha256))
        source = manifest["tenant"].get("id")
        target = slug or source
        if not isinstance(target, str) or not re.match(SLUG_PATTERN, target):
            raise DomainError(422, "VALIDATION_ERROR", f"{target!r} is not a tenant slug.", "slug")
        if db.session.get(Tenant, target) is not None:
            raise DomainError(
                409, "CONFLICT", f"Tenant {target!r} already exists: import under another "
                "--slug, or delete it first.", "slug",
            )  # fmt: skip
        reader.verify(progress)
        tables = _tables_of(manifest)
        report = ImportReport(target, warnings=trust.warnings)
        stored = _store_blobs(reader, target, progress)
        committed = False
        try:
            _load(reader, manifest, tables, target, report, progress, archive_sha, trust)
            transaction.commit()  # the rows stand before the stored blobs are released to them
            committed = True
        except IntegrityError as error:
            db.session.rollback()
            raise _clash(reader, tables) from error
        finally:
            _release(stored, target, committed)
        report.blobs = len(stored)
        key_cache.flush()
        return report
    finally:
        reader.close()


@dataclass
class _Trust:
    """What authenticates this archive: the audit keys here that are the source's, the
    manifest's signature, and whether --sha256 pinned the whole file."""

    keys: dict[str, bytes]
    signature: str
    pinned: bool
    warnings: list[str] = field(default_factory=list)


def _authenticate(manifest: dict, *, pinned: bool) -> _Trust:
    """Refuse a manifest whose signature a key here should have made and did not; say so
    when it cannot be checked here (unsigned, or signed with a key not configured here)."""
    audit = manifest.get("audit")
    if not isinstance(audit, dict) or archive.AUDIT_FILE not in manifest["files"]:
        raise archive.invalid("the manifest has no audit chain")
    keys = signing.matching_keys(audit.get("keys"), by_id=True)
    checked = signing.check(manifest, keys)
    if checked.status == "forged":
        raise archive.invalid(
            f"{archive.MANIFEST}'s signature does not verify with audit key "
            f"{checked.key_id!r} configured here: the manifest was changed after export"
        )
    trust = _Trust(keys, checked.status, pinned)
    if pinned or checked.status == "verified":
        return trust
    why = (
        "is unsigned"
        if checked.status == "unsigned"
        else f"is signed with audit key {checked.key_id!r}, which is not configured here"
    )
    trust.warnings.append(
        f"{archive.MANIFEST} {why}: its checksums, and so every member, are taken on trust. "
        "Import with --sha256 and the sha256 the export printed to check the archive whole."
    )
    return trust


def _clash(reader, tables: list[Table]) -> DomainError:
    """Why the rows would not go in, naming the tenant that holds the archive's ids: ids are
    kept on import, so the tenant it was exported from (or an earlier import of it) blocks
    a copy into the same installation, whatever the new slug."""
    for table in tables:
        if "id" not in table.c or "tenant_id" not in table.c:
            continue
        rows = reader.rows(archive.table_member(table.name))
        try:
            first = next(rows, None)
        finally:
            rows.close()
        if first is None or not isinstance(first.get("id"), str):
            continue
        holder = db.session.scalar(select(table.c.tenant_id).where(table.c.id == first["id"]))
        if holder is not None:
            return DomainError(
                409, "CONFLICT", f"This archive's ids are already in this installation: tenant "
                f"{holder!r} holds them (the tenant it was exported from, or an earlier import "
                "of it). Ids are kept on import, so a tenant cannot be copied within one "
                f"installation: import into another installation, or delete {holder!r} first.",
            )  # fmt: skip
    return DomainError(
        409, "CONFLICT", "Rows of this archive clash with rows already in this installation "
        "(a unique value other than an id); nothing was imported.",
    )  # fmt: skip


def _tables_of(manifest: dict) -> list[Table]:
    """The archive's tables, in this installation's foreign-key order; one this installation
    does not know, or that does not travel, is refused."""
    listed = manifest.get("tables")
    if not isinstance(listed, dict):
        raise archive.invalid("the manifest lists no tables")
    travelling = {t.name: t for t in archive.travelling_tables(with_secrets=True)}
    unknown = sorted(set(listed) - set(travelling))
    if unknown:
        raise archive.invalid(f"table {unknown[0]!r} is unknown here or never travels")
    for name, entry in listed.items():
        if not isinstance(entry, dict) or entry.get("member") != archive.table_member(name):
            raise archive.invalid(f"table {name!r} names the wrong member")
        if entry["member"] not in manifest["files"]:
            raise archive.invalid(f"{entry['member']} is not in the manifest")
    return [t for t in tenant_tables() if t.name in listed]


def _store_blobs(reader, tenant_id: str, progress) -> list:
    store = blob_store()
    names = sorted(n for n in reader.manifest["files"] if n.startswith("blobs/"))
    stored = []
    try:
        for name in progress(names, "blobs", len(names)):
            size = reader.manifest["files"][name]["size"]
            with reader.open(name) as member:
                blob = store.save(tenant_id, member, max_bytes=size)
            stored.append(blob)
            if blob.sha256 != name.removeprefix("blobs/"):
                raise archive.invalid(f"{name} does not hold the bytes its name says")
    except BaseException:
        _release(stored, tenant_id, committed=False)
        raise
    return stored


def _release(stored: list, tenant_id: str, committed: bool) -> None:
    """As an upload ends (services/documents/uploads.py): after a rollback, blobs no row names
    are deleted again."""
    store = blob_store()
    for blob in stored:
        store.release(tenant_id, blob, committed=committed)
        if not committed:
            delete_if_unused(tenant_id, blob.sha256)


def _load(reader, manifest, tables, target, report, progress, archive_sha, trust) -> None:
    tenant_table = Tenant.__table__
    tenant = {c.name: archive.decode(c, manifest["tenant"].get(c.name)) for c in tenant_table.c}
    # A new live chain here, keyed from its first entry; `tenant.imported` seals its head.
    tenant.update(id=target, **archive.FRESH_CHAIN)
    domain = tenant.get("custom_domain")
    if domain and db.session.scalar(select(Tenant.id).where(Tenant.custom_domain == domain)):
        tenant["custom_domain"] = None
        report.notes.append(f"custom domain {domain} is taken here: not carried over")
    db.session.execute(insert(tenant_table).values(**tenant))
    present = {t.name for t in tables} | {tenant_table.name}
    for table in progress(tables, "tables", len(tables)):
        report.rows[table.name] = _load_table(reader, table, target, present)
    import_id = new_id("imp")
    check = _load_audit(reader, manifest, target, import_id, trust.keys)
    report.audit_entries = check.count
    if check.unchecked and not trust.pinned:
        names = ", ".join(repr(k) for k in sorted(check.unchecked))
        report.warnings.append(
            f"{sum(check.unchecked.values())} archived audit entries are sealed with audit "
            f"key {names}, not configured here: their links and head are checked, their "
            "contents are not."
        )
    audit = manifest["audit"]
    audit_log.record(
        target,
        Actor.cli(),
        IMPORTED,
        target_type="tenant",
        target_id=target,
        details={
            "importId": import_id, "sourceTenant": manifest["tenant"].get("id"),
            "exportedAt": manifest.get("createdAt"), "archiveSha256": archive_sha,
            "entries": audit.get("entries"), "head": audit.get("head"),
            "keyedSince": audit.get("keyedSince"), "signature": trust.signature,
            "keys": signing.fingerprints(check.sealed_with - set(check.unchecked)),
            "rows": sum(report.rows.values()),
        },
    )  # fmt: skip
    _reindex(target)


def _load_table(reader, table: Table, target: str, present: set[str]) -> int:
    columns = table.c
    # A foreign key to a table that did not travel (a form submission's push delivery, a key's
    # predecessor without --with-secrets) is emptied; tests check none of them is required.
    dangling = [fk.parent for fk in table.foreign_keys if fk.column.table.name not in present]
    for column in dangling:
        if not column.nullable:
            raise archive.invalid(f"{table.name}.{column.name} needs a table the archive lacks")
    batch, count = [], 0
    for row in reader.rows(archive.table_member(table.name)):
        unknown = set(row) - set(columns.keys())
        if unknown:
            raise archive.invalid(f"{table.name} has no column {sorted(unknown)[0]!r} here")
        values = {name: archive.decode(columns[name], value) for name, value in row.items()}
        for name, value in ARCHIVE_DEFAULTS.get(table.name, {}).items():
            values.setdefault(name, value)
        if "tenant_id" in columns:
            values["tenant_id"] = target
        for column in dangling:
            values[column.name] = None
        batch.append(values)
        count += 1
        if len(batch) >= _BATCH:
            db.session.execute(insert(table), batch)
            batch = []
    if batch:
        db.session.execute(insert(table), batch)
    return count


def _load_audit(reader, manifest: dict, target: str, import_id: str, keys) -> ChainCheck:
    """The archived chain, each entry checked (services/audit/imported.py) as it is loaded."""
    audit = manifest["audit"]
    check = ChainCheck(keys, audit.get("keyedSince"))
    batch = []
    for row in reader.rows(archive.AUDIT_FILE):
        values = {k: archive.decode(ImportedAuditEntry.__table__.c[k], row.get(k))
                  for k in _AUDIT_FIELDS}  # fmt: skip
        source_tenant = row.get("tenant_id")
        if (
            not isinstance(source_tenant, str)
            or not isinstance(values["created_at"], datetime)
            or not all(isinstance(values[k], str) for k in ("prev_hash", "hash", "action"))
        ):
            raise archive.invalid(f"audit entry #{check.count + 1} is malformed")
        reason = check.problem(SimpleNamespace(**values), source_tenant)
        if reason:
            raise archive.invalid(f"audit {reason}")
        batch.append({
            **values, "id": new_id("aui"), "tenant_id": target, "import_id": import_id,
            "entry_id": row.get("id"), "source_tenant_id": source_tenant,
        })  # fmt: skip
        if len(batch) >= _BATCH:
            db.session.execute(insert(ImportedAuditEntry.__table__), batch)
            batch = []
    if batch:
        db.session.execute(insert(ImportedAuditEntry.__table__), batch)
    if check.count != audit.get("entries") or check.prev != audit.get("head"):
        raise archive.invalid("the audit chain is not the one the manifest describes")
    return check


def _reindex(tenant_id: str) -> None:
    """Search's index (an FTS5 table or tsvector columns, outside the rows) rebuilt from the
    imported titles, tags, metadata and texts."""
    for document in db.session.scalars(select(Document).where(Document.tenant_id == tenant_id)):
        indexing.refresh(document)


def _sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    try:
        with path.open("rb") as fh:
            while chunk := fh.read(1 << 20):
                digest.update(chunk)
    except OSError as error:
        raise archive.invalid(f"{path} is unreadable: {error}") from error
    return digest.hexdigest()

"""`flask tenants export SLUG FILE`: one tenant as a documented archive (archive.py,
docs/tenant-archive.md), read in one transaction so its rows, chain and blobs agree."""

from __future__ import annotations

import hashlib
import json
import os
import zipfile
from pathlib import Path

from sqlalchemy import select, text

import clock
from errors import DomainError
from extensions import db
from models import AuditEntry, Tenant
from services.accounts import tenants
from services.audit import audit_log, signing
from services.documents.blobs import blob_store
from services.operations import archive
from services.operations.backup import Progress, no_progress
from services.operations.tenant_tables import blob_references, tenant_filter

_CHUNK = 1 << 20


class _Member:
    """A zip member being written, hashed and counted as it goes."""

    def __init__(self, zf: zipfile.ZipFile, name: str, files: dict) -> None:
        self.name, self.files = name, files
        self.out = zf.open(name, "w", force_zip64=True)
        self.digest, self.size = hashlib.sha256(), 0

    def write(self, data: bytes) -> None:
        self.out.write(data)
        self.digest.update(data)
        self.size += len(data)

    def close(self) -> str:
        self.out.close()
        self.files[self.name] = {"sha256": self.digest.hexdigest(), "size": self.size}
        return self.digest.hexdigest()


def _line(row: dict) -> bytes:
    return json.dumps(row, ensure_ascii=False, sort_keys=True).encode() + b"\n"


def export_tenant(
    slug: str, path: Path, *, with_secrets: bool = False, progress: Progress = no_progress
) -> tuple[dict, str]:
    """Write the archive to `path` (atomically: a `.part` file renamed at the end); returns
    the manifest and the archive's own sha256 (to check on import with --sha256)."""
    path = Path(path)
    db.session.rollback()
    if db.engine.dialect.name == "postgresql":  # one snapshot for every read below
        db.session.execute(text("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY"))
    tenants.require_tenant(slug)
    tenant_row = (
        db.session.execute(select(Tenant.__table__).where(Tenant.id == slug)).mappings().one()
    )
    chain = audit_log.verify_chain(slug)
    if not chain.ok:
        raise DomainError(
            409, "CONFLICT", f"The audit chain of {slug!r} does not verify (entry "
            f"#{chain.broken_seq}: {chain.reason}); an archive would carry it as if it did.",
        )  # fmt: skip
    files: dict = {}
    partial = path.with_name(path.name + ".part")
    try:
        with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_DEFLATED) as zf:
            tables = _write_tables(zf, files, slug, with_secrets, progress)
            audit = _write_audit(zf, files, slug, tenant_row["audit_keyed_since"])
            _write_blobs(zf, files, slug, progress)
            manifest = {
                "format": archive.FORMAT,
                "version": archive.VERSION,
                "createdAt": clock.rfc3339(clock.now()),
                "tenant": {k: archive.encode(v) for k, v in tenant_row.items()
                           if k not in archive.FRESH_CHAIN},
                "source": {"dialect": db.engine.dialect.name, "revision": _revision()},
                "withSecrets": with_secrets,
                "tables": tables,
                "audit": audit,
                "files": files,
            }  # fmt: skip
            manifest[signing.SIGNATURE] = signing.sign(manifest)
            zf.writestr(archive.MANIFEST, json.dumps(manifest, indent=2, sort_keys=True))
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
        db.session.rollback()  # ends the read-only snapshot
    return manifest, _sha256_of(path)


def _write_tables(zf, files, slug, with_secrets, progress) -> dict:
    tables = archive.travelling_tables(with_secrets)
    written = {}
    for table in progress(tables, "tables", len(tables)):
        cleared = set() if with_secrets else archive.SECRET_COLUMNS.get(table.name, set())
        stmt = (
            select(table)
            .where(tenant_filter(table, slug))
            .order_by(*table.primary_key.columns)
            .execution_options(yield_per=1000)
        )
        member, count = _Member(zf, archive.table_member(table.name), files), 0
        for row in db.session.execute(stmt).mappings():
            values = {k: (None if k in cleared else archive.encode(v)) for k, v in row.items()}
            member.write(_line(values))
            count += 1
        member.close()
        written[table.name] = {"rows": count, "member": archive.table_member(table.name)}
    return written


def _write_audit(zf, files, slug, keyed_since: int) -> dict:
    """The chain, its length, head and keyed-since, and the fingerprints of the keys that
    sealed it and sign the manifest (so an installation holding them checks every seal)."""
    table = AuditEntry.__table__
    stmt = select(table).where(table.c.tenant_id == slug).order_by(table.c.seq)
    member, count, head = _Member(zf, archive.AUDIT_FILE, files), 0, audit_log.GENESIS_HASH
    key_ids = {audit_log.sealing_key_id()}
    for row in db.session.execute(stmt.execution_options(yield_per=1000)).mappings():
        member.write(_line({k: archive.encode(v) for k, v in row.items()}))
        count, head = count + 1, row["hash"]
        if row["key_id"] is not None:
            key_ids.add(row["key_id"])
    member.close()
    return {"entries": count, "head": head, "tenant": slug, "keyedSince": keyed_since,
            "keys": signing.fingerprints(key_ids)}  # fmt: skip


def _write_blobs(zf, files, slug, progress) -> None:
    shas = sorted({r.sha256 for r in db.session.execute(blob_references(slug))})
    store = blob_store()
    for sha in progress(shas, "blobs", len(shas)):
        member = _Member(zf, f"blobs/{sha}", files)
        try:
            with store.open(slug, sha) as source:
                while chunk := source.read(_CHUNK):
                    member.write(chunk)
        except FileNotFoundError as error:
            raise DomainError(
                500, "INTERNAL_ERROR", f"blob {sha} of {slug!r} is missing from the store"
            ) from error
        if member.close() != sha:
            raise DomainError(500, "INTERNAL_ERROR", f"stored blob {sha} does not match its name")


def _revision() -> str | None:
    return db.session.scalar(text("SELECT version_num FROM alembic_version"))


def _sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while chunk := fh.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()

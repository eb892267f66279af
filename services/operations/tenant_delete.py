"""Deleting a whole tenant (docs/operations.md, "Deleting a tenant"): every row of every
tenant-owned table (tenant_tables, so tables added later are included), the tenant's blobs,
its Redis keys (rate windows, usage counters, cached audit heads) and what each process
remembers of its keys and users; recorded in the operator's log (`operator_records` and a
log line), never in the deleted tenant's own audit log, which goes with it."""

from __future__ import annotations

import getpass
import logging
import socket
from dataclasses import dataclass, field

from sqlalchemy import func, select

from extensions import db, redis_store
from models import Document, OperatorRecord, Tenant
from services.accounts import tenants
from services.core import signals, transaction
from services.documents.blobs import blob_store
from services.keys import key_cache
from services.limits import usage
from services.operations.backup import Progress, no_progress
from services.operations.tenant_tables import blob_references, tenant_filter, tenant_tables
from services.search import fts5_rows

log = logging.getLogger("dms.operations")

# Tables whose row ids are credentials with rate windows of their own (api/auth.Credential).
CREDENTIAL_TABLES = ("api_keys", "users")


@dataclass
class DeletionReport:
    tenant_id: str
    rows: dict[str, int] = field(default_factory=dict)
    blobs: int = 0
    redis_keys: int = 0
    record_id: str = ""


def operator_name() -> str:
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = "unknown"
    return f"cli:{user}@{socket.gethostname()}"[:200]


def delete_tenant(slug: str, progress: Progress = no_progress) -> DeletionReport:
    """Delete the tenant and everything it owns; returns what went. The rows and the operator
    record go in one transaction (after the documents' purge signals, committed first); the
    blobs and Redis keys after it commits (a blob left by an interruption is named by no row,
    and the unreferenced-blob sweep removes it)."""
    tenant_name = tenants.require_tenant(slug).name
    report = DeletionReport(slug)
    blobs = sorted({(r.tenant_id, r.sha256) for r in db.session.execute(blob_references(slug))})
    credentials = _credential_ids(slug)
    # What capabilities keep outside the metadata (the FTS5 index, sqlite-vec's vectors, entity
    # counts) is dropped by their own receivers, as when the trash is purged.
    # Committed on its own, before the rows go: receivers may also book work for the commit
    # (analytics writes its counters then), which needs the tenant to exist still. Interrupted
    # after it, the tenant is still there and running the command again finishes the job.
    for document_id in db.session.scalars(select(Document.id).where(Document.tenant_id == slug)):
        signals.document_purged.send(document_id, tenant_id=slug)
    transaction.commit()  # the purge signals' work, while the tenant still exists (above)
    tables = list(reversed(tenant_tables()))  # children before parents
    for table in progress(tables, "rows", len(tables)):
        where = tenant_filter(table, slug)
        count = db.session.scalar(select(func.count()).select_from(table).where(where))
        if count:
            db.session.execute(table.delete().where(where))
            report.rows[table.name] = count
    if db.engine.dialect.name == "sqlite":  # the FTS5 index is not in the metadata
        fts5_rows.delete_tenant(slug)
    db.session.execute(Tenant.__table__.delete().where(Tenant.id == slug))
    record = OperatorRecord(
        action="tenant.deleted",
        tenant_id=slug,
        operator=operator_name(),
        details={"rows": report.rows, "blobs": len(blobs), "name": tenant_name},
    )
    db.session.add(record)
    db.session.flush()
    report.record_id = record.id
    transaction.commit()  # the rows go before their blobs and Redis keys do
    report.blobs = _delete_blobs(slug, blobs, progress)
    report.redis_keys = _purge_redis(slug, credentials)
    key_cache.flush()  # rows went behind the ORM's back: every process re-reads keys and users
    log.warning(
        "tenant deleted",
        extra={"tenant_id": slug, "operator_record": record.id, "rows": sum(report.rows.values()),
               "blobs": report.blobs, "redis_keys": report.redis_keys},
    )  # fmt: skip
    return report


def _credential_ids(tenant_id: str) -> set[str]:
    ids: set[str] = set()
    for name in CREDENTIAL_TABLES:
        table = db.metadata.tables[name]
        ids.update(db.session.scalars(select(table.c.id).where(tenant_filter(table, tenant_id))))
    return ids


def _delete_blobs(tenant_id: str, named: list[tuple[str, str]], progress: Progress) -> int:
    """The blobs the rows named, then any other blob stored under the tenant (an upload that
    never committed); blobs are per tenant, so another tenant's equal bytes are not touched."""
    store = blob_store()
    shas = {sha for _, sha in named}
    shas.update(sha for owner, sha in store.iter_blobs(0) if owner == tenant_id)
    for sha in progress(sorted(shas), "blobs", len(shas)):
        store.delete(tenant_id, sha)
    return len(shas)


def _purge_redis(tenant_id: str, credentials: set[str]) -> int:
    """Rate windows of the tenant and its keys and users, its usage counters, its cached
    audit head. Counts another process still holds reach Redis within seconds and expire
    with their TTL; nothing reads them once the tenant is gone."""
    usage.flush()  # this process's pending counts first, so none lands after the purge
    client = redis_store.client
    patterns = [
        redis_store.key("rl", f"tenant/{tenant_id}/*"),
        redis_store.key("usage", "m", tenant_id, "*"),
        redis_store.key("usage", "h", tenant_id, "*"),
        redis_store.key("audit-chain", tenant_id, "*"),
    ]
    doomed = {key for pattern in patterns for key in client.scan_iter(match=pattern, count=1000)}
    credential_prefix = redis_store.key("rl", "credential/")
    for key in client.scan_iter(match=credential_prefix + "*", count=1000):
        ident = key.decode().removeprefix(credential_prefix).split("/", 1)[0]
        if ident in credentials:
            doomed.add(key)
    if doomed:
        client.delete(*doomed)
    return len(doomed)

"""Moving every blob from one store to the other (`flask storage migrate --to s3|local`):
each blob the database names is copied, its sha256 checked on arrival, and a re-run after an
interruption skips what already arrived (after checking it too)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from flask import current_app
from sqlalchemy import select, union

from extensions import db
from models import Document, DocumentVersion
from services.documents.blobs import blob_in_use, store_for
from services.documents.storage import BlobStore

KINDS = ("local", "s3")
# Blobs are bounded by the upload limit when stored; a migration copies whatever is there.
_NO_LIMIT = 1 << 62
_CHUNK = 1 << 20

Progress = Callable[[Iterable, int], Iterable]


@dataclass
class MigrationReport:
    copied: int = 0
    already_there: int = 0
    bytes_copied: int = 0
    missing: list[str] = field(default_factory=list)  # "<tenant>/<sha256>" absent at the source
    corrupt: list[str] = field(default_factory=list)  # bytes that do not hash to their name

    @property
    def ok(self) -> bool:
        return not self.missing and not self.corrupt


def referenced_blobs() -> list[tuple[str, str]]:
    """(tenant id, sha256) of every blob a document or version names, in a stable order."""
    names = union(
        select(Document.tenant_id, Document.sha256),
        select(DocumentVersion.tenant_id, DocumentVersion.sha256),
    ).subquery()
    rows = db.session.execute(select(names).order_by(names.c[0], names.c[1])).all()
    return [(tenant_id, sha256) for tenant_id, sha256 in rows]


def migrate(to: str, progress: Progress | None = None) -> MigrationReport:
    """Copy every referenced blob from the other store into the `to` store (both described by
    the app's settings), verifying each; safe to re-run, and to run while the app serves."""
    if to not in KINDS:
        raise ValueError(f"--to must be one of {', '.join(KINDS)}")
    source = store_for(KINDS[1 - KINDS.index(to)], current_app.config)
    target = store_for(to, current_app.config)
    blobs = referenced_blobs()
    db.session.rollback()  # end the read transaction: the copy may take hours
    report = MigrationReport()
    items: Iterable[tuple[str, str]] = blobs if progress is None else progress(blobs, len(blobs))
    for tenant_id, sha256 in items:
        copy_one(source, target, tenant_id, sha256, report)
    return report


def copy_one(
    source: BlobStore, target: BlobStore, tenant_id: str, sha256: str, report: MigrationReport
) -> None:
    name = f"{tenant_id}/{sha256}"
    if target.exists(tenant_id, sha256):
        if _digest(target, tenant_id, sha256) == sha256:
            report.already_there += 1
            return
        # A damaged copy at the target (written outside this program): replace it.
        target.delete(tenant_id, sha256)
    try:
        reader = source.open(tenant_id, sha256)
    except FileNotFoundError:
        report.missing.append(name)
        return
    with reader:
        blob = target.save(tenant_id, reader, _NO_LIMIT, _CHUNK)
    if blob.sha256 != sha256:
        # The source's bytes are not what their name says: keep nothing of them.
        # (Unless those bytes are a blob the tenant's rows name: then they are right there.)
        target.release(tenant_id, blob, committed=False)
        target.delete_unless(tenant_id, blob.sha256, lambda: blob_in_use(tenant_id, blob.sha256))
        report.corrupt.append(name)
        return
    target.release(tenant_id, blob, committed=True)
    report.copied += 1
    report.bytes_copied += blob.size


def _digest(store: BlobStore, tenant_id: str, sha256: str) -> str:
    digest = hashlib.sha256()
    with store.open(tenant_id, sha256) as fh:
        for chunk in _chunks(fh):
            digest.update(chunk)
    return digest.hexdigest()


def _chunks(fh) -> Iterator[bytes]:
    while chunk := fh.read(_CHUNK):
        yield chunk

"""The deployment's blob store (which `services.storage.BlobStore` holds the uploaded files),
and deleting a blob only when no committed row of its tenant still names it."""

from __future__ import annotations

from flask import current_app
from sqlalchemy import exists, or_, select

from extensions import db
from models import Document, DocumentVersion
from services.documents.storage import BlobStore, LocalBlobStore


def blob_store() -> BlobStore:
    """The app's blob store (local disk under DMS_STORAGE_DIR; see docs/documents.md for S3)."""
    stores = current_app.extensions.setdefault("dms.blob_stores", {})
    root = current_app.config["DMS_STORAGE_DIR"]
    if root not in stores:
        stores[root] = LocalBlobStore(root)
    return stores[root]


def blob_in_use(tenant_id: str, sha256: str) -> bool:
    """Whether a committed document or version of the tenant names this blob (content
    addressing shares one blob between rows with equal bytes). Asked on a connection of its
    own, so the answer is never an older snapshot of the caller's transaction."""
    by_document = exists().where(Document.tenant_id == tenant_id, Document.sha256 == sha256)
    by_version = exists().where(
        DocumentVersion.tenant_id == tenant_id, DocumentVersion.sha256 == sha256
    )
    with db.engine.connect() as connection:
        return bool(connection.scalar(select(or_(by_document, by_version))))


def sweep_unreferenced(older_than_seconds: float) -> int:
    """Delete every blob no committed row names and nothing wrote for a while (left by a crash
    between storing and committing, or by a failure we did not foresee); returns how many.
    The age keeps it clear of uploads still in flight; each delete re-checks (delete_unless)."""
    removed = 0
    for tenant_id, sha256 in blob_store().iter_blobs(older_than_seconds):
        if delete_if_unused(tenant_id, sha256):
            removed += 1
    return removed


def delete_if_unused(tenant_id: str, sha256: str) -> bool:
    """Delete the blob unless a committed row names it; True if it was deleted. Safe against
    an upload of the same bytes committing at the same moment (`BlobStore.delete_unless`)."""
    return blob_store().delete_unless(tenant_id, sha256, lambda: blob_in_use(tenant_id, sha256))

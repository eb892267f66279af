"""The deployment's blob store (which `services.documents.storage.BlobStore` holds the
uploaded files), and deleting a blob only when no committed row of its tenant still names it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import current_app
from sqlalchemy import exists, or_, select

from extensions import db
from models import Document, DocumentVersion
from services.documents import s3_storage
from services.documents.storage import BlobStore, LocalBlobStore


def blob_store() -> BlobStore:
    """The app's blob store: local disk under DMS_STORAGE_DIR, or the DMS_S3_BUCKET bucket
    when DMS_STORAGE=s3 (docs/documents.md, "Storage"). One per process and setting."""
    return store_for(current_app.config["DMS_STORAGE"], current_app.config)


def store_for(kind: str, config: Mapping[str, Any]) -> BlobStore:
    """The `local` or `s3` store these settings describe (`flask storage migrate` opens both)."""
    stores = current_app.extensions.setdefault("dms.blob_stores", {})
    if kind == "local":
        where: tuple = ("local", config["DMS_STORAGE_DIR"])
    elif kind == "s3":
        if not config.get("DMS_S3_BUCKET"):
            raise RuntimeError("DMS_STORAGE=s3 needs DMS_S3_BUCKET (docs/documents.md)")
        where = (
            "s3",
            config["DMS_S3_BUCKET"],
            config.get("DMS_S3_ENDPOINT_URL"),
            config.get("DMS_S3_REGION"),
        )
    else:
        raise RuntimeError(f"DMS_STORAGE must be 'local' or 's3', not {kind!r}")
    if where not in stores:
        if kind == "local":
            stores[where] = LocalBlobStore(where[1])
        else:
            client = s3_storage.make_client(where[2], where[3])
            stores[where] = s3_storage.S3BlobStore(client, where[1])
    return stores[where]


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

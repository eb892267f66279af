"""The deployment's blob store: which `services.storage.BlobStore` holds the uploaded files."""

from __future__ import annotations

from flask import current_app

from services.storage import BlobStore, LocalBlobStore


def blob_store() -> BlobStore:
    """The app's blob store (local disk under DMS_STORAGE_DIR; see docs/documents.md for S3)."""
    stores = current_app.extensions.setdefault("dms.blob_stores", {})
    root = current_app.config["DMS_STORAGE_DIR"]
    if root not in stores:
        stores[root] = LocalBlobStore(root)
    return stores[root]

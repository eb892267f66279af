"""Owns documents and their versions: creating them from received uploads
(services/document_uploads.py), changing, trashing and restoring them, serving their content,
and the events they emit.

Text extraction and search are another module's (jobs/extraction.py, services/text_index.py);
this one calls `schedule_extraction` after new content commits and `text_index.refresh` when
a searchable field changes."""

from __future__ import annotations

import logging
from typing import Any, BinaryIO

from sqlalchemy import Select, select

import clock
from errors import FieldError, conflict, not_found, validation_failed
from extensions import db
from models.document import Document, DocumentStatus, DocumentTag, DocumentVersion, TextStatus
from services import events, transaction
from services.actors import Actor
from services.blobs import blob_store
from services.document_filters import DocumentFilters, apply_filters
from services.document_uploads import ReceivedUpload

log = logging.getLogger(__name__)


# --- creating and changing ---------------------------------------------------------------------


def create_document(
    received: ReceivedUpload,
    actor: Actor,
    *,
    title: str | None,
    tags: list[str],
    metadata: dict[str, str],
) -> Document:
    """A new document (version 1) from a received upload; emits document.created."""
    now = clock.now()
    document = Document(
        tenant_id=received.tenant_id,
        title=title or received.filename,
        filename=received.filename,
        content_type=received.content_type,
        size=received.blob.size,
        sha256=received.blob.sha256,
        status=DocumentStatus.ACTIVE.value,
        meta=dict(metadata),
        text_status=TextStatus.PENDING.value,
        current_version=1,
        created_by=actor.ref,
        created_at=now,
        updated_at=now,
    )
    document.tags = [DocumentTag(tag=t, tenant_id=received.tenant_id) for t in tags]
    db.session.add(document)
    db.session.add(_version(document, received, 1, actor, now))
    db.session.flush()
    events.emit(document.tenant_id, "document.created", {"document": document_data(document)})
    transaction.after_commit(lambda: _schedule_extraction(document))
    transaction.commit()
    return document


def add_version(document: Document, received: ReceivedUpload, actor: Actor) -> DocumentVersion:
    """New content for `document`: version n+1 becomes current; emits document.updated."""
    _require_not_trashed(document)
    now = clock.now()
    number = document.current_version + 1
    version = _version(document, received, number, actor, now)
    db.session.add(version)
    document.current_version = number
    document.filename = received.filename
    document.content_type = received.content_type
    document.size = received.blob.size
    document.sha256 = received.blob.sha256
    document.text_status = TextStatus.PENDING.value
    document.updated_at = now
    db.session.flush()
    events.emit(
        document.tenant_id,
        "document.updated",
        {"document": document_data(document), "changes": ["content"], "version": number},
    )
    transaction.after_commit(lambda: _schedule_extraction(document))
    transaction.commit()
    return version


def _version(
    document: Document, received: ReceivedUpload, number: int, actor: Actor, now
) -> DocumentVersion:
    return DocumentVersion(
        tenant_id=received.tenant_id,
        document=document,
        number=number,
        filename=received.filename,
        content_type=received.content_type,
        size=received.blob.size,
        sha256=received.blob.sha256,
        created_by=actor.ref,
        created_at=now,
    )


def _schedule_extraction(document: Document) -> None:
    # The document is committed; a failure to enqueue must not turn the upload into an error
    # (the text stays pending and the extraction module's reindex command picks it up).
    try:
        from jobs.extraction import schedule_extraction

        schedule_extraction(document)
    except Exception:
        db.session.rollback()
        log.exception("text extraction not scheduled", extra={"document_id": document.id})


_TRANSITIONS = {
    DocumentStatus.ACTIVE: {DocumentStatus.ARCHIVED, DocumentStatus.DELETED},
    DocumentStatus.ARCHIVED: {DocumentStatus.ACTIVE, DocumentStatus.DELETED},
    DocumentStatus.DELETED: {DocumentStatus.ACTIVE},  # restore from the trash
}


def update_document(document: Document, changes: dict[str, Any], actor: Actor) -> Document:
    """Apply a PATCH (title, tags, metadata merge, status); emits document.updated (or
    document.deleted when the status moves to the trash). A trashed document only accepts
    being restored (status active)."""
    status = changes.get("status")
    current = DocumentStatus(document.status)
    restoring = status is not None and status != current
    if current is DocumentStatus.DELETED and not restoring and set(changes) - {"status"}:
        raise conflict("This document is in the trash; restore it (status active) first.")
    changed: list[str] = []
    if status is not None and status != current:
        if status not in _TRANSITIONS[current]:
            raise validation_failed(
                [FieldError("VALIDATION_ERROR", f"status: cannot go from {current}.", "status")]
            )
        if status is DocumentStatus.DELETED:
            return trash_document(document, actor)
        document.status = status.value
        document.deleted_at = None
        changed.append("status")
    if changes.get("title") is not None and changes["title"] != document.title:
        document.title = changes["title"]
        changed.append("title")
    if changes.get("tags") is not None and changes["tags"] != document.tag_names:
        _set_tags(document, changes["tags"])
        changed.append("tags")
    if changes.get("metadata") is not None:
        merged = _merge_metadata(document.meta or {}, changes["metadata"])
        if merged != (document.meta or {}):
            document.meta = merged
            changed.append("metadata")
    if not changed:
        return document
    document.updated_at = clock.now()
    db.session.flush()
    _refresh_search_entry(document, changed)
    events.emit(
        document.tenant_id,
        "document.updated",
        {"document": document_data(document), "changes": changed},
    )
    transaction.commit()
    return document


def _merge_metadata(current: dict[str, str], patch: dict[str, str | None]) -> dict[str, str]:
    merged = dict(current)
    for key, value in patch.items():
        if value is None:
            merged.pop(key, None)
        else:
            merged[key] = value
    if len(merged) > 50:
        raise validation_failed(
            [FieldError("VALIDATION_ERROR", "metadata: at most 50 keys.", "metadata")]
        )
    return merged


def _set_tags(document: Document, tags: list[str]) -> None:
    keep = {t.tag: t for t in document.tags if t.tag in tags}
    document.tags = [keep.get(t) or DocumentTag(tag=t, tenant_id=document.tenant_id) for t in tags]


def _refresh_search_entry(document: Document, changed: list[str]) -> None:
    if not {"title", "tags", "metadata"} & set(changed):
        return
    from services import text_index

    text_index.refresh(document)


def trash_document(document: Document, actor: Actor) -> Document:
    """Move to the trash (restorable with status active until the purge job runs)."""
    if document.status == DocumentStatus.DELETED.value:
        return document
    now = clock.now()
    document.status = DocumentStatus.DELETED.value
    document.deleted_at = now
    document.updated_at = now
    db.session.flush()
    events.emit(
        document.tenant_id,
        "document.deleted",
        {"document": document_data(document), "deletedBy": actor.ref},
    )
    transaction.commit()
    return document


def _require_not_trashed(document: Document) -> None:
    if document.status == DocumentStatus.DELETED.value:
        raise conflict("This document is in the trash; restore it (status active) first.")


# --- reading -----------------------------------------------------------------------------------


def get_document(tenant_id: str, document_id: str) -> Document:
    return Document.get_for_tenant(document_id, tenant_id)


def list_query(tenant_id: str, filters: DocumentFilters) -> Select:
    return apply_filters(select(Document), tenant_id, filters)


def versions_query(document: Document) -> Select:
    return select(DocumentVersion).where(
        DocumentVersion.tenant_id == document.tenant_id,
        DocumentVersion.document_id == document.id,
    )


def get_version(document: Document, number: int | None) -> DocumentVersion:
    """The numbered version of `document` (the current one when None), or 404."""
    wanted = document.current_version if number is None else number
    version = db.session.scalar(versions_query(document).where(DocumentVersion.number == wanted))
    if version is None:
        raise not_found("Document version")
    return version


def open_content(version: DocumentVersion) -> BinaryIO:
    try:
        return blob_store().open(version.tenant_id, version.sha256)
    except FileNotFoundError:
        log.error("blob missing", extra={"document_id": version.document_id})
        raise not_found("Document content") from None


# --- wire shapes (the API's bodies and the events' data) ---------------------------------------


def document_data(document: Document) -> dict[str, Any]:
    return {
        "id": document.id,
        "title": document.title,
        "filename": document.filename,
        "contentType": document.content_type,
        "size": document.size,
        "sha256": document.sha256,
        "status": document.status,
        "tags": document.tag_names,
        "metadata": dict(document.meta or {}),
        "textStatus": document.text_status,
        "currentVersion": document.current_version,
        "createdBy": document.created_by,
        "createdAt": clock.rfc3339(document.created_at),
        "updatedAt": clock.rfc3339(document.updated_at),
        "deletedAt": clock.rfc3339(document.deleted_at),
    }


def version_data(version: DocumentVersion) -> dict[str, Any]:
    return {
        "id": version.id,
        "documentId": version.document_id,
        "number": version.number,
        "filename": version.filename,
        "contentType": version.content_type,
        "size": version.size,
        "sha256": version.sha256,
        "createdBy": version.created_by,
        "createdAt": clock.rfc3339(version.created_at),
    }

"""Owns documents and their versions: creating them from received uploads
(services/documents/uploads.py), changing, trashing and restoring them, serving their content,
and the events they emit.

Text extraction and search are another module's (jobs/search.py, services/search/indexing.py);
this one calls `schedule_extraction` after new content commits and `indexing.refresh` when
a searchable field changes."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, BinaryIO

from sqlalchemy import ColumnElement, Select, select

import clock
from errors import FieldError, conflict, not_found, validation_failed
from extensions import db
from models.base import new_id
from models.documents import Document, DocumentStatus, DocumentTag, DocumentVersion, TextStatus
from services.audit import audit_log
from services.core import events, paging, signals
from services.core.actors import Actor
from services.documents.blobs import blob_store
from services.documents.filters import DocumentFilters, apply_filters, sort_columns
from services.documents.uploads import ReceivedUpload
from services.documents.wire import MAX_METADATA_KEYS, document_data

log = logging.getLogger(__name__)


# --- creating and changing ---------------------------------------------------------------------


def create_document(
    received: ReceivedUpload,
    actor: Actor,
    *,
    title: str | None,
    tags: list[str],
    metadata: dict[str, str],
    source: dict[str, str],
    prepare: Callable[[Document], object] | None = None,
) -> Document:
    """A new document (version 1) from a received upload; emits document.created. `source`
    says how it came in: {"type": SourceType, …what that way in knows}. `prepare` runs once
    the document has its id and before the event: what another capability sets on a new
    document (its custom field values), so that the event shows it."""
    now = clock.now()
    document = Document(
        id=new_id("doc"),  # known now: `prepare` and the receivers need no flush to see it
        tenant_id=received.tenant_id,
        title=title or received.filename,
        filename=received.filename,
        content_type=received.content_type,
        size=received.blob.size,
        sha256=received.blob.sha256,
        status=DocumentStatus.ACTIVE.value,
        meta=dict(metadata),
        source=dict(source),
        text_status=TextStatus.PENDING.value,
        text_truncated=False,
        current_version=1,
        created_by=actor.ref,
        created_at=now,
        updated_at=now,
    )
    document.tags = [DocumentTag(tag=t, tenant_id=received.tenant_id) for t in tags]
    db.session.add(document)
    db.session.add(_version(document, received, 1, actor, now))
    if prepare is not None:
        prepare(document)
    # The rows are written at the unit of work's next flush: an import's batch together.
    data = document_data(document, fresh=prepare is None)
    events.emit(document.tenant_id, "document.created", {"document": data})
    signals.document_state_changed.send(document, previous=None, stored_bytes=document.size)
    signals.document_content_changed.send(document, new=True)
    return document


def add_version(document: Document, received: ReceivedUpload, actor: Actor) -> DocumentVersion:
    """New content for `document`: version n+1 becomes current; emits document.updated."""
    _require_not_trashed(document)
    previous = (document.status, document.content_type)
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
    signals.document_state_changed.send(document, previous=previous, stored_bytes=version.size)
    signals.document_content_changed.send(document)
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


_TRANSITIONS = {
    DocumentStatus.ACTIVE: {DocumentStatus.ARCHIVED, DocumentStatus.DELETED},
    DocumentStatus.ARCHIVED: {DocumentStatus.ACTIVE, DocumentStatus.DELETED},
    DocumentStatus.DELETED: {DocumentStatus.ACTIVE},  # restore from the trash
}


def update_document(
    document: Document,
    changes: dict[str, Any],
    actor: Actor,
    also: Callable[[Document], bool] | None = None,
) -> Document:
    """Apply a PATCH (title, tags, metadata merge, status); emits document.updated (or
    document.deleted when the status moves to the trash). A trashed document only accepts
    being restored (status active). `also` makes another capability's change to the
    document (its custom field values) and says whether anything changed: one
    document.updated then names it ("customFields") beside the document's own changes."""
    status = changes.get("status")
    current = DocumentStatus(document.status)
    restoring = status is not None and status != current
    asked = bool(set(changes) - {"status"}) or also is not None
    if current is DocumentStatus.DELETED and not restoring and asked:
        raise conflict("This document is in the trash; restore it (status active) first.")
    changed: list[str] = []
    if status is not None and status != current:
        if status not in _TRANSITIONS[current]:
            raise validation_failed(
                [FieldError("VALIDATION_ERROR", f"status: cannot go from {current}.", "status")]
            )
        if status is DocumentStatus.DELETED:
            return trash_document(document, actor)
        previous = (document.status, document.content_type)
        if current is DocumentStatus.DELETED:
            _audit(document, actor, "document.restored", deletedAt=document.deleted_at)
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
    if also is not None and also(document):
        changed.append("customFields")
    if not changed:
        return document
    document.updated_at = clock.now()
    if "status" in changed:
        signals.document_state_changed.send(document, previous=previous, stored_bytes=0)
    signals.document_fields_changed.send(document, changed=changed)
    events.emit(
        document.tenant_id,
        "document.updated",
        {"document": document_data(document), "changes": changed},
    )
    return document


def _merge_metadata(current: dict[str, str], patch: dict[str, str | None]) -> dict[str, str]:
    merged = dict(current)
    for key, value in patch.items():
        if value is None:
            merged.pop(key, None)
        else:
            merged[key] = value
    if len(merged) > MAX_METADATA_KEYS:
        raise validation_failed(
            [
                FieldError(
                    "VALIDATION_ERROR", f"metadata: at most {MAX_METADATA_KEYS} keys.", "metadata"
                )
            ]
        )
    return merged


def _set_tags(document: Document, tags: list[str]) -> None:
    keep = {t.tag: t for t in document.tags if t.tag in tags}
    document.tags = [keep.get(t) or DocumentTag(tag=t, tenant_id=document.tenant_id) for t in tags]


def trash_document(document: Document, actor: Actor) -> Document:
    """Move to the trash (restorable with status active until the purge job runs)."""
    if document.status == DocumentStatus.DELETED.value:
        return document
    previous = (document.status, document.content_type)
    now = clock.now()
    document.status = DocumentStatus.DELETED.value
    document.deleted_at = now
    document.updated_at = now
    db.session.flush()
    _audit(document, actor, "document.trashed", previousStatus=previous[0])
    signals.document_state_changed.send(document, previous=previous, stored_bytes=0)
    events.emit(
        document.tenant_id,
        "document.deleted",
        {"document": document_data(document), "deletedBy": actor.ref},
    )
    return document


def _audit(document: Document, actor: Actor, action: str, **details: Any) -> None:
    """One audit entry naming the document by id and title, so "who deleted it" has an answer
    through the API, the portal, bulk edits and the purge alike."""
    extra = {k: clock.rfc3339(v) if isinstance(v, datetime) else v for k, v in details.items()}
    audit_log.record(
        document.tenant_id,
        actor,
        action,
        target_type="document",
        target_id=document.id,
        details={"title": document.title, **{k: v for k, v in extra.items() if v is not None}},
    )


def _require_not_trashed(document: Document) -> None:
    if document.status == DocumentStatus.DELETED.value:
        raise conflict("This document is in the trash; restore it (status active) first.")


# --- reading -----------------------------------------------------------------------------------


def get_document(tenant_id: str, document_id: str) -> Document:
    return Document.get_for_tenant(document_id, tenant_id)


def list_documents(
    tenant_id: str,
    filters: DocumentFilters,
    limit: int,
    position: Sequence[Any] | None,
    condition: ColumnElement[bool] | None = None,
) -> tuple[list[Document], bool]:
    """One keyset page of the tenant's documents in `filters.sort` order after `position`
    (see filters.position_of), and whether more follow; `condition` narrows it further (a
    customFieldQuery, compiled by services/customfields/query.py)."""
    stmt = apply_filters(select(Document), tenant_id, filters)
    if condition is not None:
        stmt = stmt.where(condition)
    return paging.keyset_page(stmt, sort_columns(filters.sort), limit, position)


def matching_ids(tenant_id: str, ids: Sequence[str], condition: ColumnElement[bool]) -> set[str]:
    """Which of the tenant's documents `ids` meet `condition` (a search page narrowed by a
    customFieldQuery)."""
    if not ids:
        return set()
    stmt = select(Document.id).where(
        Document.tenant_id == tenant_id, Document.id.in_(list(ids)), condition
    )
    return set(db.session.scalars(stmt))


def same_content(tenant_id: str, sha256: str, exclude: str | None = None) -> Document | None:
    """A document of the tenant, not in the trash, whose current content has this SHA-256
    (the portal's duplicate check), or None."""
    stmt = select(Document).where(
        Document.tenant_id == tenant_id,
        Document.sha256 == sha256,
        Document.status != DocumentStatus.DELETED.value,
    )
    if exclude is not None:
        stmt = stmt.where(Document.id != exclude)
    return db.session.scalars(stmt.order_by(Document.created_at).limit(1)).first()


def _versions_query(document: Document) -> Select:
    return select(DocumentVersion).where(
        DocumentVersion.tenant_id == document.tenant_id,
        DocumentVersion.document_id == document.id,
    )


def list_versions(
    document: Document, limit: int, after_number: int | None
) -> tuple[list[DocumentVersion], bool]:
    """One keyset page of the document's versions, newest first."""
    position = None if after_number is None else [after_number]
    return paging.keyset_page(
        _versions_query(document), [(DocumentVersion.number, True)], limit, position
    )


def get_version(document: Document, number: int | None) -> DocumentVersion:
    """The numbered version of `document` (the current one when None), or 404."""
    wanted = document.current_version if number is None else number
    version = db.session.scalar(_versions_query(document).where(DocumentVersion.number == wanted))
    if version is None:
        raise not_found("Document version")
    return version


def open_content(version: DocumentVersion) -> BinaryIO:
    try:
        return blob_store().open(version.tenant_id, version.sha256)
    except FileNotFoundError:
        log.error("blob missing", extra={"document_id": version.document_id})
        raise not_found("Document content") from None

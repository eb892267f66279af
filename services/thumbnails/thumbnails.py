"""Owns each document's thumbnail: making it (a job after each upload and new version, queued
once the content has committed, services/thumbnails/subscriptions.py), storing it on the
`document_thumbnails` row, and finding it for the API and the portal.

Redis carries the job; the row remembers it. A document without a current thumbnail (new
content, a lost job, a document older than thumbnails) gets a job when one is asked for, at
most one waiting per document (queue.enqueue_unless_waiting); `flask documents thumbnails`
makes the missing ones of a whole installation."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta
from hashlib import sha256
from typing import TYPE_CHECKING

from redis.exceptions import RedisError
from rq import Retry
from sqlalchemy import select

import clock
from errors import DomainError
from extensions import db
from models import Document, DocumentVersion
from models.base import in_tenant
from models.thumbnails import DocumentThumbnail, ThumbnailStatus
from services.core import queue

if TYPE_CHECKING:  # Pillow loads only where pictures are drawn: services/thumbnails/drawing.py
    from services.thumbnails import render

log = logging.getLogger(__name__)

THUMBNAIL_JOB = "jobs.thumbnails.make_thumbnail"
BATCH_JOB = "jobs.thumbnails.make_thumbnails"
# Documents of one tenant per job for new content: one work horse and two commits for the lot.
BATCH = 25
JOB_TIMEOUT = 10 * 60
# A killed work horse is retried; a file that keeps killing it gets the type icon after this
# many attempts on one version, so that asking again and again cannot loop a crash.
JOB_RETRY = Retry(max=2, interval=[30, 120])
MAX_ATTEMPTS = 3
# How long one waiting job stands for every request of the same document.
WAITING_FOR = timedelta(minutes=10)
# What a 409 NOT_READY tells the caller to wait, in seconds.
RETRY_AFTER_SECONDS = 5


# --- scheduling --------------------------------------------------------------------------------


def _waiting_key(document_id: str) -> str:
    return f"thumbnail-{document_id}"


def schedule(tenant_id: str, document_id: str, version_number: int) -> bool:
    """Enqueue the thumbnail of one version unless a live job for the document is waiting;
    False when Redis failed (the next request for the thumbnail, or the CLI, enqueues it
    again). A waiting mark whose job is gone (an emptied queue, an evicted job) is replaced,
    so a lost job never holds the thumbnail back for the mark's lifetime."""
    key = _waiting_key(document_id)
    try:
        lost = not queue.job_is_alive(queue.waiting_job(key))
        queue.enqueue_unless_waiting(
            key,
            THUMBNAIL_JOB,
            tenant_id,
            document_id,
            version_number,
            waiting_for=WAITING_FOR,
            replace=lost,
            job_timeout=JOB_TIMEOUT,
            retry=JOB_RETRY,
        )
    except RedisError as exc:
        log.warning(
            "could not enqueue a thumbnail", extra={"document_id": document_id, "error": str(exc)}
        )
        return False
    return True


def schedule_new_content(calls: list[tuple[str, str, int]]) -> bool:
    """After the commit that stored new content: the thumbnails of these (tenant, document,
    version)s, a job per BATCH documents of one tenant, each document's waiting mark naming
    its job (so that a request for the thumbnail meanwhile wakes no other); False when Redis
    failed (the next request for a thumbnail, or the CLI, enqueues it again)."""
    try:
        for tenant_id, items in queue.tenant_batches(calls, BATCH):
            keys = [_waiting_key(document_id) for document_id, _ in items]
            queue.enqueue_for_all(
                keys,
                BATCH_JOB,
                tenant_id,
                items,
                waiting_for=WAITING_FOR,
                job_timeout=JOB_TIMEOUT,
                retry=JOB_RETRY,
            )
    except RedisError as exc:
        log.warning("could not enqueue thumbnails", extra={"error": str(exc)})
        return False
    return True


def taken(document_ids: list[str]) -> None:
    """The job has started: a request from now on may wake another (for newer content)."""
    queue.taken_all([_waiting_key(document_id) for document_id in document_ids])


# --- reading -----------------------------------------------------------------------------------


def _row(tenant_id: str, document_id: str) -> DocumentThumbnail | None:
    return db.session.scalar(
        select(DocumentThumbnail).where(
            DocumentThumbnail.document_id == document_id,
            in_tenant(DocumentThumbnail, tenant_id),
        )
    )


def is_current(row: DocumentThumbnail | None, document: Document) -> bool:
    return (
        row is not None
        and row.status == ThumbnailStatus.READY.value
        and row.version_number == document.current_version
        and row.image is not None
    )


def current_thumbnail(document: Document) -> DocumentThumbnail:
    """The document's thumbnail of its current version (the caller loaded `document` in its
    tenant), or 409 NOT_READY with Retry-After, after making sure a job is on its way."""
    row = _row(document.tenant_id, document.id)
    if is_current(row, document):
        assert row is not None
        return row
    schedule(document.tenant_id, document.id, document.current_version)
    raise DomainError(
        409,
        "NOT_READY",
        "The thumbnail is being made; ask again shortly.",
        headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
    )


def ready_ids(tenant_id: str, documents: list[Document]) -> set[str]:
    """Which of the tenant's `documents` have the thumbnail of their current version (one
    query for a page); the others get a job on its way."""
    if not documents:
        return set()
    rows = db.session.execute(
        select(DocumentThumbnail.document_id, DocumentThumbnail.version_number).where(
            DocumentThumbnail.document_id.in_([d.id for d in documents]),
            DocumentThumbnail.status == ThumbnailStatus.READY.value,
            in_tenant(DocumentThumbnail, tenant_id),
        )
    )
    versions = dict(rows.all())
    ready = {d.id for d in documents if versions.get(d.id) == d.current_version}
    for document in documents:
        if document.id not in ready:
            schedule(tenant_id, document.id, document.current_version)
    return ready


# --- making ------------------------------------------------------------------------------------


@dataclass
class Attempt:
    """One attempt at one version's thumbnail, recorded before the work starts."""

    tenant_id: str
    document_id: str
    version_number: int
    content_type: str
    filename: str
    sha256: str
    attempts: int
    # An earlier attempt on this version began and never finished: its process died.
    died_before: bool = False


def begin(tenant_id: str, document_id: str, version_number: int) -> Attempt | None:
    """begin_many for one version; None when there is nothing to do."""
    begun = begin_many(tenant_id, [(document_id, version_number)])
    return begun[0] if begun else None


def begin_many(tenant_id: str, items: list[tuple[str, int]]) -> list[Attempt]:
    """Record an attempt at each (document, version) (the caller commits them before
    drawing, so a crash leaves a count), with one query per table for the lot. Skipped: a
    document gone, with newer content, or with this version's thumbnail already."""
    ids = [document_id for document_id, _ in items]
    documents = Document.get_many_for_tenant(ids, tenant_id)
    versions = {
        (v.document_id, v.number): v
        for v in db.session.scalars(
            select(DocumentVersion).where(
                DocumentVersion.document_id.in_(ids), in_tenant(DocumentVersion, tenant_id)
            )
        )
    }
    rows = {r.document_id: r for r in _rows(tenant_id, ids)}
    attempts, now = [], clock.now()
    for document_id, version_number in items:
        document = documents.get(document_id)
        version = versions.get((document_id, version_number))
        if document is None or document.current_version != version_number or version is None:
            continue
        row = rows.get(document_id)
        if is_current(row, document):
            continue
        if row is None:
            row = rows[document_id] = DocumentThumbnail(
                document_id=document_id, tenant_id=tenant_id, attempts=0
            )
            db.session.add(row)
        if row.version_number != version_number:
            row.version_number, row.attempts, row.error = version_number, 0, None
        # A pending row that was attempted already: that attempt's process died mid-way.
        died = row.status == ThumbnailStatus.PENDING.value and row.attempts > 0
        row.status = ThumbnailStatus.PENDING.value
        row.attempts += 1
        row.updated_at = now
        attempts.append(
            Attempt(
                tenant_id,
                document_id,
                version_number,
                version.content_type,
                version.filename,
                version.sha256,
                row.attempts,
                died,
            )
        )
    db.session.flush()
    return attempts


def store(attempt: Attempt, thumbnail: render.Thumbnail) -> str | None:
    """store_many for one attempt."""
    return store_many([(attempt, thumbnail)])[0]


def store_many(drawn: list[tuple[Attempt, render.Thumbnail]]) -> list[str | None]:
    """Keep each picture (one query for the lot), unless its document is gone or has newer
    content meanwhile; their kinds (None: not kept)."""
    if not drawn:
        return []
    rows = {
        r.document_id: r for r in _rows(drawn[0][0].tenant_id, [a.document_id for a, _ in drawn])
    }
    return [
        _keep(rows.get(attempt.document_id), attempt, thumbnail) for attempt, thumbnail in drawn
    ]


def _rows(tenant_id: str, document_ids: list[str]) -> list[DocumentThumbnail]:
    return list(
        db.session.scalars(
            select(DocumentThumbnail).where(
                DocumentThumbnail.document_id.in_(document_ids),
                in_tenant(DocumentThumbnail, tenant_id),
            )
        )
    )


def _keep(
    row: DocumentThumbnail | None, attempt: Attempt, thumbnail: render.Thumbnail
) -> str | None:
    if row is None or row.version_number != attempt.version_number:
        return None
    now = clock.now()
    row.status = ThumbnailStatus.READY.value
    row.kind = thumbnail.kind
    row.image = thumbnail.image
    row.etag = sha256(thumbnail.image).hexdigest()
    row.width, row.height = thumbnail.width, thumbnail.height
    row.error = thumbnail.error[:300] if thumbnail.error else None
    row.finished_at = row.updated_at = now
    log.info(
        "made a thumbnail",
        extra={"document_id": attempt.document_id, "kind": thumbnail.kind, "error": row.error},
    )
    return thumbnail.kind

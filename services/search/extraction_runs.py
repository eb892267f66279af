"""Owns the runs of text extraction: queueing a document's extraction and its OCR stage, one
attempt on one version (recorded before the work starts), and storing what it found, which
refreshes the document's index entry (services/search/indexing.py)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from flask import current_app
from redis.exceptions import RedisError
from rq import Retry
from sqlalchemy import select, update

import clock
from extensions import db
from models import Document, DocumentVersion, TextStatus
from models.base import in_tenant
from models.search import DocumentText
from services.core import queue, signals, transaction
from services.documents.blobs import blob_store
from services.documents.storage import local_path
from services.search import extraction, passages
from services.search.indexing import mark_pending, refresh, text_of, text_row
from services.search.limits import Budgets

log = logging.getLogger(__name__)

EXTRACTION_JOB = "jobs.search.extract_document"
OCR_JOB = "jobs.search.ocr_document"
# Past the CPU budget of the work horse, only a stalled call (storage, database) is left.
EXTRACTION_TIMEOUT = 15 * 60
# A crash of the work horse (killed) is retried; extract_text never raises, and a job stopped
# by a process limit records it and returns (jobs/search.py), so neither is retried.
EXTRACTION_RETRY = Retry(max=2, interval=[60, 300])


def schedule_extraction(document: Document) -> bool:
    """Mark the document's text pending and enqueue its extraction; False when Redis failed.
    See schedule_extractions."""
    return schedule_extractions([document])


def schedule_extractions(documents: list[Document]) -> bool:
    """Mark the documents' text pending and enqueue their extractions; False when Redis failed.

    A follow-up unit of work: run it after the transaction that stored the content has
    committed (`transaction.after_commit`). It commits the pending states, then enqueues (one
    round trip for the lot: a folder import's batch), so the worker always finds the committed
    rows; a failure to enqueue leaves the texts pending for `flask documents reindex`."""
    for document in documents:
        mark_pending(document)
    # Read before the commit expires the rows: reading them after would load each again.
    calls = [(d.tenant_id, d.id, d.current_version) for d in documents]
    db.session.commit()  # the pending states stand before the jobs that read them are enqueued
    try:
        jobs = queue.enqueue_many(
            EXTRACTION_JOB, calls, timeout=EXTRACTION_TIMEOUT, retry=EXTRACTION_RETRY
        )
    except RedisError as exc:
        log.warning(
            "could not enqueue text extraction; `flask documents reindex` will retry",
            extra={"document_ids": [call[1] for call in calls][:20], "error": str(exc)},
        )
        return False
    # One statement for the lot (by primary key), not a load and an update for each row.
    db.session.execute(
        update(DocumentText),
        [{"document_id": call[1], "job_id": job.id} for call, job in zip(calls, jobs, strict=True)],
    )
    db.session.commit()  # the jobs' ids, a unit of work after the enqueue
    return True


def schedule_ocr(tenant_id: str, document_id: str, version_number: int) -> bool:
    """Enqueue the OCR stage on its own queue; False when Redis failed (the text stays pending
    and the recovery sweep runs the extraction again).

    A follow-up unit of work, after the text stage has committed (as schedule_extraction)."""
    try:
        job = queue.enqueue(
            OCR_JOB,
            tenant_id,
            document_id,
            version_number,
            queue_name=queue.OCR_QUEUE,
            job_timeout=EXTRACTION_TIMEOUT,
            retry=EXTRACTION_RETRY,
        )
    except RedisError as exc:
        log.warning(
            "could not enqueue OCR; the recovery sweep will retry",
            extra={"document_id": document_id, "error": str(exc)},
        )
        return False
    row = text_of(tenant_id, document_id)
    if row is not None:
        row.job_id = job.id  # so the recovery sweep sees the work as alive
        db.session.commit()  # after the text stage's commit: a follow-up unit of work
    return True


@dataclass
class Attempt:
    """One extraction attempt on one version, begun and recorded before the work starts."""

    document: Document
    row: DocumentText
    version_number: int


def _current(tenant_id: str, document_id: str, version_number: int) -> Document | None:
    """The document, unless it was purged or a newer version has been uploaded since (its own
    job will index that one)."""
    document = db.session.scalar(
        select(Document).where(Document.id == document_id, Document.tenant_id == tenant_id)
    )
    if document is None or document.current_version != version_number:
        return None
    return document


def begin_extraction(tenant_id: str, document_id: str, version_number: int) -> Attempt | None:
    """Record an attempt at extracting one version's text (the caller commits it before the
    work, so the attempt is on record even if the worker dies mid-extraction). Each job
    counts one: a scanned PDF takes two, the text layer and then OCR.

    None when there is nothing to do: the document was purged, or has newer content."""
    document = _current(tenant_id, document_id, version_number)
    if document is None:
        return None
    row = text_row(document)
    row.attempts += 1
    row.started_at = clock.now()
    db.session.flush()
    return Attempt(document, row, version_number)


def finish_extraction(attempt: Attempt, *, ocr_here: bool = False) -> str:
    """The text stage: extract the version's text, store it and index it; returns the new
    text status. A document only OCR can read stays pending and goes to the OCR queue once
    this unit of work commits (`ocr_here`: read it now instead, where there is no queue)."""
    budgets = Budgets.from_config(current_app.config)
    result = _extract(
        attempt, lambda path, mime: extraction.extract_text(path, mime, budgets, ocr=ocr_here)
    )
    if result.status != "needs_ocr":
        return _store(attempt, result)
    document = attempt.document
    attempt.row.error = None
    attempt.row.updated_at = clock.now()
    transaction.after_commit(
        partial(schedule_ocr, document.tenant_id, document.id, attempt.version_number)
    )
    log.info("text extraction handed to OCR", extra={"document_id": document.id})
    return document.text_status


def finish_ocr(attempt: Attempt) -> str:
    """The OCR stage (its own queue): read the image or the scanned pages, store, index."""
    budgets = Budgets.from_config(current_app.config)
    return _store(attempt, _extract(attempt, partial(extraction.ocr_text, budgets=budgets)))


def fail_extraction(tenant_id: str, document_id: str, version_number: int, error: str) -> str:
    """Record a failure caught around the extraction (a process limit hit while storing)."""
    document = _current(tenant_id, document_id, version_number)
    if document is None:
        return TextStatus.FAILED.value
    attempt = Attempt(document, text_row(document), version_number)
    return _store(attempt, extraction.ExtractionResult("failed", error=error))


def _extract(
    attempt: Attempt, run: Callable[[Path, str], extraction.ExtractionResult]
) -> extraction.ExtractionResult:
    document, version_number = attempt.document, attempt.version_number
    version = db.session.scalar(
        select(DocumentVersion).where(
            DocumentVersion.document_id == document.id,
            DocumentVersion.number == version_number,
            in_tenant(DocumentVersion, document.tenant_id),
        )
    )
    sha256 = version.sha256 if version is not None else document.sha256
    content_type = version.content_type if version is not None else document.content_type
    try:
        with local_path(blob_store(), document.tenant_id, sha256) as path:
            return run(path, content_type)
    except FileNotFoundError:
        return extraction.ExtractionResult("failed", error="the stored content is missing")


def _store(attempt: Attempt, result: extraction.ExtractionResult) -> str:
    document, row = attempt.document, attempt.row
    row.text = result.text if result.status == "done" else ""
    row.version_number = attempt.version_number
    row.error = result.error
    row.finished_at = clock.now()
    row.updated_at = clock.now()
    document.text_status = result.status
    # The document record says why there is no text (failed, unsupported) and whether the
    # text was cut at a budget; document_texts.error keeps the same for operators.
    document.text_error = result.error[:300] if result.error and result.status != "done" else None
    document.text_truncated = result.truncated
    refresh(document)
    passages.replace(document.tenant_id, document.id, row.text, row.version_number)
    db.session.flush()
    signals.document_text_changed.send(document)
    log.info(
        "extracted document text",
        extra={
            "document_id": document.id,
            "text_status": result.status,
            "error": result.error,
            "truncated": result.truncated,
        },
    )
    return result.status


def pending_documents(tenant_id: str | None = None) -> list[tuple[str, str, int]]:
    """(tenant, document, version) of every document whose text is still pending."""
    stmt = select(Document.tenant_id, Document.id, Document.current_version).where(
        Document.text_status == TextStatus.PENDING.value
    )
    if tenant_id is not None:
        stmt = stmt.where(Document.tenant_id == tenant_id)
    return [tuple(r) for r in db.session.execute(stmt.order_by(Document.id))]  # type: ignore[misc]

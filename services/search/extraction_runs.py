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
from services.search.indexing import mark_pending, refresh, text_row
from services.search.limits import Budgets

log = logging.getLogger(__name__)

EXTRACTION_JOB = "jobs.search.extract_documents"
# Documents of one tenant per extraction job: one work horse, two commits and one follow-up
# of each kind (rules, mentions) for the lot, instead of one each.
EXTRACTION_BATCH = 25
OCR_JOB = "jobs.search.ocr_document"
# Past the CPU budget of the work horse, only a stalled call (storage, database) is left.
EXTRACTION_TIMEOUT = 15 * 60
# A crash of the work horse (killed) is retried; extract_text never raises, and a job stopped
# by a process limit records it and returns (jobs/search.py), so neither is retried.
EXTRACTION_RETRY = Retry(max=2, interval=[60, 300])
# A version whose extraction stopped the process this many times fails without another try.
MAX_ATTEMPTS = 3


def schedule_extraction(document: Document) -> bool:
    """Mark the document's text pending and enqueue its extraction; False when Redis failed.
    See schedule_extractions."""
    return schedule_extractions([document])


def schedule_extractions(documents: list[Document]) -> bool:
    """Mark the documents' text pending and enqueue their extractions (recovery, reindexing);
    False when Redis failed.

    A unit of work of its own: it commits the pending states, then enqueues, so the worker
    always finds the committed rows; a failure to enqueue leaves the texts pending for the
    recovery sweep or `flask documents reindex`. New content is marked pending in the unit of
    work that stores it (services/search/subscriptions.py), then `enqueue_extractions`."""
    for document in documents:
        mark_pending(document)
    # Read before the commit expires the rows: reading them after would load each again.
    calls = [(d.tenant_id, d.id, d.current_version) for d in documents]
    db.session.commit()  # the pending states stand before the jobs that read them are enqueued
    return enqueue_extractions(calls)


def enqueue_extractions(calls: list[tuple[str, str, int]]) -> bool:
    """Enqueue the extraction of these committed (tenant, document, version)s, a job per
    EXTRACTION_BATCH documents of one tenant, in one round trip to Redis; then record each
    document's job (one statement, committed: a follow-up unit of work). False when Redis
    failed: the texts stay pending, and the recovery sweep schedules them again."""
    batches = queue.tenant_batches(calls, EXTRACTION_BATCH)
    try:
        jobs = queue.enqueue_many(
            EXTRACTION_JOB, batches, timeout=EXTRACTION_TIMEOUT, retry=EXTRACTION_RETRY
        )
    except RedisError as exc:
        log.warning(
            "could not enqueue text extraction; the recovery sweep will retry",
            extra={"document_ids": [call[1] for call in calls][:20], "error": str(exc)},
        )
        return False
    # One statement for the lot (by primary key), not a load and an update for each row.
    db.session.execute(
        update(DocumentText),
        [
            {"document_id": item[0], "job_id": job.id}
            for (_, items), job in zip(batches, jobs, strict=True)
            for item in items
        ],
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
    db.session.execute(
        update(DocumentText)
        .where(DocumentText.document_id == document_id, DocumentText.tenant_id == tenant_id)
        .values(job_id=job.id)  # so the recovery sweep sees the work as alive
    )
    db.session.commit()  # after the text stage's commit: a follow-up unit of work
    return True


@dataclass(frozen=True)
class Attempt:
    """One extraction attempt on one version, begun and recorded before the work starts:
    what the work needs, as plain values (the rows are read again to store the outcome)."""

    tenant_id: str
    document_id: str
    version_number: int
    sha256: str
    content_type: str
    # Attempts on this version so far, this one included.
    attempts: int = 1
    # An earlier attempt on this version began and never finished: its process died.
    died_before: bool = False


def begin_extractions(
    tenant_id: str, items: list[tuple[str, int]], *, pending_only: bool = False
) -> list[Attempt]:
    """Record an attempt at each (document, version) that still needs one (the caller commits
    them before the work, so an attempt is on record even if the worker dies mid-way), with
    one query per table for the lot. Each run counts one: a scanned PDF takes two, the text
    layer and then OCR.

    Skipped: a document purged, or with newer content since; with `pending_only`, one whose
    text is not pending any more (a batch run again after its process died)."""
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
    rows = {
        r.document_id: r
        for r in db.session.scalars(
            select(DocumentText).where(
                DocumentText.document_id.in_(ids), in_tenant(DocumentText, tenant_id)
            )
        )
    }
    attempts, now = [], clock.now()
    for document_id, version_number in items:
        document = documents.get(document_id)
        if document is None or document.current_version != version_number:
            continue
        if pending_only and document.text_status != TextStatus.PENDING.value:
            continue
        row = rows.get(document_id) or text_row(document)
        died = row.started_at is not None and (
            row.finished_at is None or row.finished_at < row.started_at
        )
        row.attempts += 1
        row.started_at = now
        version = versions.get((document_id, version_number))
        attempts.append(
            Attempt(
                tenant_id,
                document_id,
                version_number,
                version.sha256 if version is not None else document.sha256,
                version.content_type if version is not None else document.content_type,
                row.attempts,
                died,
            )
        )
    db.session.flush()
    return attempts


def begin_extraction(tenant_id: str, document_id: str, version_number: int) -> Attempt | None:
    """begin_extractions for one version; None when there is nothing to do."""
    begun = begin_extractions(tenant_id, [(document_id, version_number)])
    return begun[0] if begun else None


def extract(attempt: Attempt, *, ocr_here: bool = False) -> extraction.ExtractionResult:
    """The text stage's work on the stored file, outside any unit of work (it may take
    seconds). A document only OCR can read answers `needs_ocr` (`ocr_here`: read it now
    instead, where there is no queue to hand it to)."""
    budgets = Budgets.from_config(current_app.config)
    return _on_file(
        attempt, lambda path, mime: extraction.extract_text(path, mime, budgets, ocr=ocr_here)
    )


def store_extractions(outcomes: list[tuple[Attempt, extraction.ExtractionResult]]) -> list[str]:
    """Store and index what the text stage found for each attempt (one unit of work for the
    lot); the new text statuses. A document that needs OCR stays pending and goes to the OCR
    queue once this commits."""
    if not outcomes:
        return []
    transaction.memoize_until_commit()  # the batch's documents ask the same questions
    tenant_id = outcomes[0][0].tenant_id
    ids = [attempt.document_id for attempt, _ in outcomes]
    documents = Document.get_many_for_tenant(ids, tenant_id)
    rows = {
        r.document_id: r
        for r in db.session.scalars(
            select(DocumentText).where(
                DocumentText.document_id.in_(ids), in_tenant(DocumentText, tenant_id)
            )
        )
    }
    statuses = []
    for attempt, result in outcomes:
        document = documents.get(attempt.document_id)
        if document is None or document.current_version != attempt.version_number:
            statuses.append(TextStatus.PENDING.value)  # purged or newer: not this run's to store
            continue
        row = rows.get(document.id) or text_row(document)
        if result.status == "needs_ocr":
            row.error = None
            row.finished_at = row.updated_at = clock.now()  # this stage's attempt ended
            transaction.after_commit(
                partial(schedule_ocr, tenant_id, document.id, attempt.version_number)
            )
            log.info("text extraction handed to OCR", extra={"document_id": document.id})
            statuses.append(document.text_status)
        else:
            statuses.append(_store(document, row, attempt.version_number, result))
    return statuses


def finish_extraction(attempt: Attempt, *, ocr_here: bool = False) -> str:
    """The text stage of one attempt: extract, then store and index; the new text status."""
    return store_extractions([(attempt, extract(attempt, ocr_here=ocr_here))])[0]


def finish_ocr(attempt: Attempt) -> str:
    """The OCR stage (its own queue): read the image or the scanned pages, store, index."""
    budgets = Budgets.from_config(current_app.config)
    result = _on_file(attempt, partial(extraction.ocr_text, budgets=budgets))
    return store_extractions([(attempt, result)])[0]


def fail_extraction(tenant_id: str, document_id: str, version_number: int, error: str) -> str:
    """Record a failure caught around the extraction (a process limit hit while storing)."""
    document = _current(tenant_id, document_id, version_number)
    if document is None:
        return TextStatus.FAILED.value
    result = extraction.ExtractionResult("failed", error=error)
    return _store(document, text_row(document), version_number, result)


def _current(tenant_id: str, document_id: str, version_number: int) -> Document | None:
    """The document, unless it was purged or a newer version has been uploaded since (its own
    job will index that one)."""
    document = db.session.scalar(
        select(Document).where(Document.id == document_id, Document.tenant_id == tenant_id)
    )
    if document is None or document.current_version != version_number:
        return None
    return document


def _on_file(
    attempt: Attempt, run: Callable[[Path, str], extraction.ExtractionResult]
) -> extraction.ExtractionResult:
    try:
        with local_path(blob_store(), attempt.tenant_id, attempt.sha256) as path:
            return run(path, attempt.content_type)
    except FileNotFoundError:
        return extraction.ExtractionResult("failed", error="the stored content is missing")


def _store(
    document: Document, row: DocumentText, version_number: int, result: extraction.ExtractionResult
) -> str:
    row.text = result.text if result.status == "done" else ""
    row.version_number = version_number
    row.error = result.error
    row.finished_at = clock.now()
    row.updated_at = clock.now()
    document.text_status = result.status
    # The document record says why there is no text (failed, unsupported) and whether the
    # text was cut at a budget; document_texts.error keeps the same for operators.
    document.text_error = result.error[:300] if result.error and result.status != "done" else None
    document.text_truncated = result.truncated
    refresh(document)
    passages.replace(document.tenant_id, document.id, row.text, version_number)
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

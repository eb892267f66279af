"""Owns a document's extracted text and its search-index entry, on both database engines.

PostgreSQL: `document_texts.search_vector`, a tsvector of the title (weight A), the tags and
metadata values (B), the text (C) and the notes (D), under a GIN index. SQLite: one row per
document in the `document_search` FTS5 table (title, keywords, body, notes). Notes find a
document but never rank it: they are left out of PostgreSQL's rank vector and weigh 0 in
SQLite's bm25 (docs/notes.md). `refresh(document)` rebuilds the entry and must run whenever
the title, tags, metadata, text or notes change, in the same transaction."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from flask import current_app
from redis.exceptions import RedisError
from rq import Retry
from sqlalchemy import select, text

import clock
from extensions import db
from models import Document, DocumentVersion, TextStatus
from models.base import in_tenant
from models.notes import Note
from models.search import DocumentText
from services.core import queue, signals, transaction
from services.documents.blobs import blob_store
from services.documents.storage import local_path
from services.search import extraction, fts5_rows, passages
from services.search.limits import Budgets
from services.search.scoring import unmarked

log = logging.getLogger(__name__)

# The text search configuration (stemming, stop words) for PostgreSQL; SQLite's FTS5 table
# uses the Porter stemmer over unicode61 to behave alike.
PG_CONFIG = "english"
# tsvector values are capped at 1 MB; beyond this many characters the text is stored (and
# shown) but not indexed.
INDEX_MAX_CHARS = 250_000
# PostgreSQL ranks on the title, tags, metadata and this lead of the text (docs/search.md).
RANK_LEAD_CHARS = 1000
# The notes' words indexed per document, the newest notes first (a tsvector holds 1 MB).
NOTES_INDEX_MAX_CHARS = 100_000


def dialect() -> str:
    return db.session.get_bind().dialect.name


def _text_of(tenant_id: str, document_id: str) -> DocumentText | None:
    return db.session.scalar(
        select(DocumentText).where(
            DocumentText.document_id == document_id, DocumentText.tenant_id == tenant_id
        )
    )


def text_row(document: Document) -> DocumentText:
    """The document's own text row, kept by the session once loaded (the text may be long)."""
    row = db.session.get(DocumentText, document.id)
    if row is None:
        row = DocumentText(document_id=document.id, tenant_id=document.tenant_id, text="")
        db.session.add(row)
        db.session.flush()
    return row


def keywords_of(document: Document) -> str:
    """The words of the tags and of the metadata values, indexed with weight B."""
    values = [str(v) for v in (document.meta or {}).values()]
    return " ".join([*document.tag_names, *values])


def notes_of(document: Document) -> str:
    """The words of the document's notes, newest first, up to NOTES_INDEX_MAX_CHARS."""
    bodies = db.session.scalars(
        select(Note.body)
        .where(Note.document_id == document.id, in_tenant(Note, document.tenant_id))
        .order_by(Note.id.desc())
    )
    kept, size = [], 0
    for body in bodies:
        if size >= NOTES_INDEX_MAX_CHARS:
            break
        kept.append(body[: NOTES_INDEX_MAX_CHARS - size])
        size += len(kept[-1]) + 1
    return "\n".join(kept)


def refresh(document: Document) -> None:
    """Rebuild the document's index entry from its current title, tags, metadata, text and
    notes.

    Call it in the transaction that changed any of them (PATCH, upload, extraction, a note)."""
    row = text_row(document)
    params = entry(
        document.id,
        document.tenant_id,
        document.title or "",
        keywords_of(document),
        row.text,
        notes_of(document),
    )
    if dialect() == "postgresql":
        db.session.execute(
            text(
                _pg_update_sql(":title", ":keywords", ":body", ":notes")
                + " WHERE document_id = :id"
            ),
            {**params, "cfg": PG_CONFIG, "lead": RANK_LEAD_CHARS},
        )
    else:
        fts5_rows.write([params])


def entry(
    document_id: str,
    tenant_id: str,
    title: str,
    keywords: str,
    body: str | None,
    notes: str = "",
) -> dict:
    """The indexed fields of one document, without the highlight markers (SQLite builds
    snippets from these copies) and with the text cut at INDEX_MAX_CHARS."""
    return {
        "id": document_id,
        "tenant": tenant_id,
        "title": unmarked(title),
        "keywords": unmarked(keywords),
        "body": unmarked((body or "")[:INDEX_MAX_CHARS]),
        "notes": unmarked(notes[:NOTES_INDEX_MAX_CHARS]),
    }


# The tsvector of one document: title A, tags and metadata values B, text C.
_PG_VECTOR = (
    "setweight(to_tsvector(CAST(:cfg AS regconfig), {title}), 'A')"
    " || setweight(to_tsvector(CAST(:cfg AS regconfig), {keywords}), 'B')"
    " || setweight(to_tsvector(CAST(:cfg AS regconfig), {body}), 'C')"
)


# The notes, in the matching vector only: weight D, which no ranking reads.
_PG_NOTES = " || setweight(to_tsvector(CAST(:cfg AS regconfig), {notes}), 'D')"


def _pg_update_sql(title: str, keywords: str, body: str, notes: str) -> str:
    """UPDATE document_texts SET both vectors: `search_vector` (matching: full text and
    notes) and `rank_vector` (ranking: the same fields with only the lead of the text, kept
    small, and no notes)."""
    full = _PG_VECTOR.format(title=title, keywords=keywords, body=body)
    full += _PG_NOTES.format(notes=notes)
    lead = _PG_VECTOR.format(title=title, keywords=keywords, body=f"left({body}, :lead)")
    return f"UPDATE document_texts dt SET search_vector = {full}, rank_vector = {lead}"  # noqa: S608 (constant fragments; values are bound)


def rebuild_vectors(tenant_id: str, batch_size: int = 2000) -> Iterator[int]:
    """PostgreSQL: recompute every tsvector of a tenant in SQL, a batch per transaction
    (after a change of configuration or weights, or a bulk load); yields rows done."""
    keywords = (
        "concat_ws(' ',"
        " (SELECT string_agg(t.tag, ' ') FROM document_tags t WHERE t.document_id = d.id),"
        " (SELECT string_agg(m.value, ' ') FROM json_each_text(d.metadata) m))"
    )
    notes = (
        "left(coalesce((SELECT string_agg(n.body, E'\\n' ORDER BY n.id DESC) FROM notes n"  # noqa: S608 (a constant)
        f" WHERE n.document_id = d.id), ''), {NOTES_INDEX_MAX_CHARS})"
    )
    after = ""
    while True:
        ids = list(
            db.session.scalars(
                select(DocumentText.document_id)
                .where(DocumentText.tenant_id == tenant_id, DocumentText.document_id > after)
                .order_by(DocumentText.document_id)
                .limit(batch_size)
            )
        )
        if not ids:
            return
        db.session.execute(
            text(
                _pg_update_sql("d.title", keywords, f"left(dt.text, {INDEX_MAX_CHARS})", notes)
                + " FROM documents d WHERE d.id = dt.document_id"
                " AND d.id = ANY(:ids) AND dt.document_id = ANY(:ids)"
            ),
            {"cfg": PG_CONFIG, "ids": ids, "lead": RANK_LEAD_CHARS},
        )
        db.session.commit()  # a batch at a time: a crash keeps the batches already done
        after = ids[-1]
        yield len(ids)


def remove(tenant_id: str, document_id: str) -> None:
    """Drop the document's text, passages and index entry (the purge job; FTS5 has no
    foreign keys)."""
    if dialect() != "postgresql":
        fts5_rows.delete(document_id)
    passages.remove(document_id)
    row = _text_of(tenant_id, document_id)
    if row is not None:
        db.session.delete(row)


def mark_pending(document: Document) -> DocumentText:
    """The document's text is (again) to be extracted; its index entry follows its fields."""
    document.text_status = TextStatus.PENDING.value
    document.text_error = None
    document.text_truncated = False
    row = text_row(document)
    row.error = None
    row.enqueued_at = clock.now()
    row.updated_at = clock.now()
    refresh(document)
    return row


EXTRACTION_JOB = "jobs.search.extract_document"
OCR_JOB = "jobs.search.ocr_document"
# Past the CPU budget of the work horse, only a stalled call (storage, database) is left.
EXTRACTION_TIMEOUT = 15 * 60
# A crash of the work horse (killed) is retried; extract_text never raises, and a job stopped
# by a process limit records it and returns (jobs/search.py), so neither is retried.
EXTRACTION_RETRY = Retry(max=2, interval=[60, 300])


def schedule_extraction(document: Document) -> bool:
    """Mark the document's text pending and enqueue its extraction; False when Redis failed.

    A follow-up unit of work: run it after the transaction that stored the content has
    committed (`transaction.after_commit`). It commits the pending state, then enqueues, so
    the worker always finds the committed rows; a failure to enqueue leaves the text pending
    for `flask documents reindex`."""
    row = mark_pending(document)
    db.session.commit()  # the pending state stands before the job that reads it is enqueued
    try:
        job = queue.enqueue(
            EXTRACTION_JOB,
            document.tenant_id,
            document.id,
            document.current_version,
            job_timeout=EXTRACTION_TIMEOUT,
            retry=EXTRACTION_RETRY,
        )
    except RedisError as exc:
        log.warning(
            "could not enqueue text extraction; `flask documents reindex` will retry",
            extra={"document_id": document.id, "error": str(exc)},
        )
        return False
    row.job_id = job.id
    db.session.commit()  # the job's id, a unit of work after the enqueue
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
    row = _text_of(tenant_id, document_id)
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

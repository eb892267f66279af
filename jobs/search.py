"""The search jobs: text extraction (enqueued by services/search/extraction_runs), the text stage on
the default queue and the OCR stage on the "ocr" queue for images and PDFs without a text
layer; and the periodic ones: the recovery of lost extraction work every 5 minutes, and the
daily merge of SQLite's full-text index with the listing of its common words.

The database remembers the work (the document's text status and its `document_texts` row);
Redis only carries it. The attempt is committed before the extraction starts, so a worker
that dies mid-way leaves a record of it."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import time, timedelta
from functools import partial

from rq import get_current_job

from extensions import db
from services.core import transaction
from services.core.queue import Periodic
from services.search import (
    common_words,
    extraction,
    extraction_runs,
    index_merge,
    limits,
    recovery,
)
from services.semantic import embedding

log = logging.getLogger("dms.semantic")

# The jobs the worker runs under the extraction limits (memory ceiling, CPU budget), and how
# many documents a run works (each gets the CPU budget: jobs/worker.py).
JOBS_UNDER_LIMITS = {
    extraction_runs.EXTRACTION_JOB: lambda args: len(args[1]),
    extraction_runs.OCR_JOB: lambda args: 1,
}

# The batch jobs, and how many documents a run takes at most (jobs/worker.py folds waiting ones).
BATCH_JOBS = {extraction_runs.EXTRACTION_JOB: extraction_runs.EXTRACTION_BATCH}

# The jobs run at a low CPU priority (jobs/worker.py): OCR takes seconds of CPU a page, and
# waits for idle cores rather than slowing the text stage and the uploads beside it.
LOW_PRIORITY_JOBS = frozenset({extraction_runs.OCR_JOB})

RECOVERY = Periodic(
    "recover-lost-work", "jobs.search.recover_lost_work", every=timedelta(minutes=5), timeout=600
)
# After the documents' daily job (03:00): the merge then folds in the trash purge's deletions,
# and the two do not wait for each other on SQLite's one writer.
DAILY = Periodic("search-daily", "jobs.search.daily", daily_at=time(3, 30), timeout=3600)
PERIODIC = [RECOVERY, DAILY]


def extract_documents(tenant_id: str, items: list[list]) -> dict[str, int]:
    """The text stage of a batch of one tenant's [document, version]s in one work horse: the
    attempts recorded together, each document extracted under its own CPU budget, what they
    gave stored together. How many documents ended in each text status.

    A document whose earlier attempt never finished (its process died: the hard CPU limit,
    the OOM killer) is a suspect: it gets a job of its own, so it can stop only itself, and
    after MAX_ATTEMPTS it fails without another try. A document that hits a process limit is
    recorded as failed, and the documents after it go to a new job, in a fresh process."""
    ocr_here = get_current_job() is None  # `flask documents reindex --inline`: no OCR queue
    pending = [(document_id, version) for document_id, version in items]
    begun = transaction.transactional(extraction_runs.begin_extractions)(
        tenant_id, pending, pending_only=True
    )

    def work(attempt: extraction_runs.Attempt) -> extraction.ExtractionResult:
        if attempt.attempts > extraction_runs.MAX_ATTEMPTS:
            error = f"gave up after {extraction_runs.MAX_ATTEMPTS} attempts stopped the worker"
            return extraction.ExtractionResult("failed", error=error)
        return extraction_runs.extract(attempt, ocr_here=ocr_here)

    outcomes, later = limits.work_batch(
        begun, work, lambda _, why: extraction.ExtractionResult("failed", error=why)
    )
    try:
        statuses = transaction.transactional(extraction_runs.store_extractions)(outcomes)
    except limits.PROCESS_LIMIT_ERRORS as exc:  # hit while storing: each document's failure
        limits.stand_down()
        statuses = [
            transaction.transactional(extraction_runs.fail_extraction)(
                a.tenant_id, a.document_id, a.version_number, limits.reason(exc)
            )
            for a, _ in outcomes
        ]
    for attempts in later:  # after this run's commit
        extraction_runs.enqueue_extractions(
            [(a.tenant_id, a.document_id, a.version_number) for a in attempts]
        )
    for (attempt, _), status in zip(outcomes, statuses, strict=True):
        _embed_passages(tenant_id, attempt.document_id, status)
    return {status: statuses.count(status) for status in set(statuses)}


def extract_document(tenant_id: str, document_id: str, version_number: int) -> str | None:
    """Extract, store and index one version's text; returns the text status (None: nothing
    to do, the document is gone or has newer content)."""
    attempt = transaction.transactional(extraction_runs.begin_extraction)(
        tenant_id, document_id, version_number
    )
    if attempt is None:
        return None
    return _one(attempt, get_current_job() is None)


def ocr_document(tenant_id: str, document_id: str, version_number: int) -> str | None:
    """The OCR stage of one version, enqueued by the text stage."""
    attempt = transaction.transactional(extraction_runs.begin_extraction)(
        tenant_id, document_id, version_number
    )
    if attempt is None:
        return None
    return _within_limits(attempt, extraction_runs.finish_ocr)


def _one(attempt: extraction_runs.Attempt, ocr_here: bool) -> str:
    limits.next_document()
    return _within_limits(attempt, partial(extraction_runs.finish_extraction, ocr_here=ocr_here))


def _within_limits(
    attempt: extraction_runs.Attempt, finish: Callable[[extraction_runs.Attempt], str]
) -> str:
    try:
        status = transaction.transactional(finish)(attempt)
    except limits.PROCESS_LIMIT_ERRORS as exc:
        # Hitting a limit is the document's outcome, not a crash: recorded, and the job returns
        # normally so that RQ does not retry it (a retry would only hit it again).
        limits.stand_down()
        return transaction.transactional(extraction_runs.fail_extraction)(
            attempt.tenant_id, attempt.document_id, attempt.version_number, limits.reason(exc)
        )
    _embed_passages(attempt.tenant_id, attempt.document_id, status)
    return status


def _embed_passages(tenant_id: str, document_id: str, status: str) -> None:
    """Once the text and its passages are committed, their vectors (when embeddings are on);
    "pending" means the OCR stage follows, which comes back here when it is done."""
    if status == "pending" or not embedding.enabled():
        return
    try:
        embedding.schedule(tenant_id, document_id)
    except Exception:  # the text is stored; `flask documents embed` catches up
        db.session.rollback()
        log.exception("embedding not scheduled", extra={"document_id": document_id})


def recover_lost_work() -> dict[str, int]:
    """RQ job, every 5 minutes: enqueue again the extractions the database says are pending
    but no job carries any more (services/search/recovery.py), book the next run, then merge
    the segments SQLite's index holds several of on one level (index_merge.tidy)."""
    extractions = recovery.recover_extractions()  # each in its own unit of work
    RECOVERY.book()
    tidied = index_merge.tidy()  # commits per step
    return {"extractions": extractions, "searchIndexTidySteps": tidied}


def daily() -> dict[str, int]:
    """RQ job, daily at 03:30 UTC: book tomorrow's run, merge SQLite's index into one segment
    (committed a step at a time), then list its common words' best matches (a word at a
    time). Both do nothing on PostgreSQL."""
    DAILY.book()
    merge_steps = index_merge.merge()
    common = common_words.refresh()
    return {"searchIndexMergeSteps": merge_steps, "commonWordsListed": common.listed}

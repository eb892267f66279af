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

from rq import get_current_job

from extensions import db
from services.core import transaction
from services.core.queue import Periodic
from services.search import common_words, extraction_runs, index_merge, limits, recovery
from services.semantic import embedding

log = logging.getLogger("dms.semantic")

# The jobs the worker runs under the extraction limits (memory ceiling, CPU budget).
JOBS_UNDER_LIMITS = frozenset({extraction_runs.EXTRACTION_JOB, extraction_runs.OCR_JOB})

RECOVERY = Periodic(
    "recover-lost-work", "jobs.search.recover_lost_work", every=timedelta(minutes=5), timeout=600
)
# After the documents' daily job (03:00): the merge then folds in the trash purge's deletions,
# and the two do not wait for each other on SQLite's one writer.
DAILY = Periodic("search-daily", "jobs.search.daily", daily_at=time(3, 30), timeout=3600)
PERIODIC = [RECOVERY, DAILY]


def extract_document(tenant_id: str, document_id: str, version_number: int) -> str | None:
    """Extract, store and index one version's text; returns the text status (None: nothing
    to do, the document is gone or has newer content)."""
    # Outside a worker (`flask documents reindex --inline`) no queue is there to take OCR.
    ocr_here = get_current_job() is None
    return _within_limits(
        lambda attempt: extraction_runs.finish_extraction(attempt, ocr_here=ocr_here),
        tenant_id,
        document_id,
        version_number,
    )


def ocr_document(tenant_id: str, document_id: str, version_number: int) -> str | None:
    """The OCR stage of one version, enqueued by the text stage."""
    return _within_limits(extraction_runs.finish_ocr, tenant_id, document_id, version_number)


def _within_limits(
    finish: Callable[[extraction_runs.Attempt], str],
    tenant_id: str,
    document_id: str,
    version_number: int,
) -> str | None:
    try:
        attempt = transaction.transactional(extraction_runs.begin_extraction)(
            tenant_id, document_id, version_number
        )
        if attempt is None:
            return None
        status = transaction.transactional(finish)(attempt)
        _embed_passages(tenant_id, document_id, status)
        return status
    except limits.PROCESS_LIMIT_ERRORS as exc:
        # Hitting a limit is the document's outcome, not a crash: recorded, and the job returns
        # normally so that RQ does not retry it (a retry would only hit it again).
        limits.stand_down()
        return transaction.transactional(extraction_runs.fail_extraction)(
            tenant_id, document_id, version_number, limits.reason(exc)
        )


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

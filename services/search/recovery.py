"""Recovery without hands for text extraction: a document the database says is pending, but
whose job no longer exists or no longer runs (Redis flushed or down at upload time, a worker
killed mid-job), is scheduled again. The database is the record; Redis only carries the work.
jobs/search.py runs this every 5 minutes; `flask documents reindex` does it by hand."""

from __future__ import annotations

import logging
from datetime import timedelta

from redis.exceptions import RedisError
from sqlalchemy import or_, select

import clock
from extensions import db
from models import Document, DocumentText, TextStatus
from services.core.queue import job_is_alive
from services.search import extraction_runs

log = logging.getLogger(__name__)

# A job enqueued this recently may not be visible yet, or be about to start: leave it be.
GRACE = timedelta(minutes=10)
BATCH = 500


def lost_extractions() -> list[Document]:
    """Pending documents scheduled longer than GRACE ago (or never) whose job is not alive."""
    cutoff = clock.now() - GRACE
    rows = db.session.execute(
        select(Document, DocumentText.job_id)
        .outerjoin(DocumentText, DocumentText.document_id == Document.id)
        .where(
            Document.text_status == TextStatus.PENDING.value,
            or_(DocumentText.enqueued_at.is_(None), DocumentText.enqueued_at < cutoff),
        )
        .order_by(Document.id)
        .limit(BATCH)
    ).all()
    return [document for document, job_id in rows if not job_is_alive(job_id)]


def recover_extractions() -> int:
    """Schedule every lost extraction again; returns how many (0 when Redis is away: the next
    run tries again)."""
    try:
        lost = lost_extractions()
    except RedisError as exc:
        log.warning("extraction recovery skipped: Redis unreachable", extra={"error": str(exc)})
        return 0
    recovered = 0
    for document in lost:
        if extraction_runs.schedule_extraction(document):  # its own units of work
            recovered += 1
    if recovered:
        log.info("re-enqueued lost text extractions", extra={"documents": recovered})
    return recovered

"""Recovery without hands for text extraction: a document the database says is pending, but
whose job no longer exists or no longer runs (Redis flushed or down at upload time, a worker
killed mid-job), is scheduled again. The database is the record; Redis only carries the work.
jobs/housekeeping.py runs this every few minutes; `flask documents reindex` does it by hand."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

from redis.exceptions import RedisError
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus
from sqlalchemy import or_, select

import clock
from extensions import db, redis_store
from models import Document, DocumentText, TextStatus
from services.search import indexing

log = logging.getLogger(__name__)

# A job enqueued this recently may not be visible yet, or be about to start: leave it be.
GRACE = timedelta(minutes=10)
# A started job whose work horse has not sent a heartbeat for this long died with it.
HEARTBEAT_LOST_AFTER = timedelta(minutes=5)
BATCH = 500
_WAITING = {JobStatus.QUEUED, JobStatus.DEFERRED, JobStatus.SCHEDULED}


def job_is_alive(job_id: str | None) -> bool:
    """Whether an RQ job still carries its work: waiting, scheduled (a retry), or running
    with a recent heartbeat."""
    if not job_id:
        return False
    try:
        job = Job.fetch(job_id, connection=redis_store.client)
    except NoSuchJobError:
        return False
    status = job.get_status(refresh=False)
    if status in _WAITING:
        return True
    if status == JobStatus.STARTED:
        beat = job.last_heartbeat
        if beat is not None and beat.tzinfo is None:
            beat = beat.replace(tzinfo=UTC)
        return beat is not None and datetime.now(UTC) - beat < HEARTBEAT_LOST_AFTER
    return False


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
        if indexing.schedule_extraction(document):  # its own units of work
            recovered += 1
    if recovered:
        log.info("re-enqueued lost text extractions", extra={"documents": recovered})
    return recovered

"""The text-extraction job: scheduling it after an upload, and the thin job that runs it.

The database remembers the work (the document's text status and its `document_texts` row);
Redis only carries it. When Redis is unreachable an upload still succeeds with its text
pending, and `flask documents reindex` enqueues every pending document again."""

from __future__ import annotations

import logging

from redis.exceptions import RedisError
from rq import Retry

import jobs
from extensions import db
from models import Document
from services import text_index

log = logging.getLogger(__name__)

JOB_TIMEOUT = 15 * 60  # OCR of a long scanned PDF takes minutes
# A crash of the work horse (out of memory, killed) is retried; extract_text never raises.
RETRY = Retry(max=2, interval=[60, 300])


def schedule_extraction(document: Document) -> bool:
    """Mark the document's text pending and enqueue its extraction; False when Redis failed.

    Call after the transaction that stored the content has committed: this commits the
    pending state, then enqueues, so the worker always finds the committed rows."""
    row = text_index.mark_pending(document)
    db.session.commit()
    try:
        job = jobs.enqueue(
            extract_document,
            document.tenant_id,
            document.id,
            document.current_version,
            job_timeout=JOB_TIMEOUT,
            retry=RETRY,
        )
    except RedisError as exc:
        log.warning(
            "could not enqueue text extraction; `flask documents reindex` will retry",
            extra={"document_id": document.id, "error": str(exc)},
        )
        return False
    row.job_id = job.id
    db.session.commit()
    return True


def extract_document(tenant_id: str, document_id: str, version_number: int) -> str | None:
    """RQ job: extract, store and index one version's text (runs in the app context)."""
    return text_index.extract_and_index(tenant_id, document_id, version_number)

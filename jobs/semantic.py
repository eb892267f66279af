"""The embedding job (enqueued by services/semantic/embedding.schedule): the vectors of one
document's passages, computed in batches by the configured endpoint or model. The endpoint's
own retries come first (embedders.py); when they are spent, RQ tries the job again
(EMBED_RETRY) and the last attempt records the document as failed."""

from __future__ import annotations

from rq import get_current_job

from services.core import transaction
from services.semantic import embedders, embedding


def embed_document(tenant_id: str, document_id: str) -> str | None:
    """Three units of work: the attempt is on record before the endpoint is called, which
    happens outside any transaction; then its outcome. Returns the status (None: the document
    is gone); raises for RQ to try again while attempts are left."""
    job = get_current_job()
    final = job is None or not job.retries_left
    attempt = transaction.transactional(embedding.begin)(tenant_id, document_id)
    if attempt is None:
        return None
    try:
        model, computed = embedding.compute(attempt)
    except embedders.EmbeddingError as exc:
        status = transaction.transactional(embedding.record_failure)(attempt, exc, final=final)
        if exc.retryable and not final:
            raise
        return status
    return transaction.transactional(embedding.store)(attempt, model, computed)

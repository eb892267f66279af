"""The embedding job (enqueued by services/semantic/embedding.schedule): the vectors of one
document's passages, computed in batches by the configured endpoint or model. The endpoint's
own retries come first (embedders.py); when they are spent, RQ tries the job again
(EMBED_RETRY) and the last attempt records the document as failed."""

from __future__ import annotations

from rq import get_current_job

from services.semantic import embedding


def embed_document(tenant_id: str, document_id: str) -> str | None:
    job = get_current_job()
    final = job is None or not job.retries_left
    return embedding.embed_document(tenant_id, document_id, final=final)

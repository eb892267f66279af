"""The thumbnail job (enqueued by services/thumbnails/thumbnails.py after each upload and new
version, and when a missing thumbnail is asked for). It runs in a work horse under the
extraction's limits (memory ceiling, CPU budget: jobs/worker.py); the attempt is committed
before the drawing starts, so a horse that dies leaves a count of it."""

from __future__ import annotations

from services.core import transaction
from services.search import limits
from services.thumbnails import drawing, thumbnails

# The jobs the worker runs under the extraction limits.
JOBS_UNDER_LIMITS = frozenset({thumbnails.THUMBNAIL_JOB})


def make_thumbnail(tenant_id: str, document_id: str, version_number: int) -> str | None:
    """Draw and keep one version's thumbnail; returns its kind (page, image, text, icon), or
    None when there was nothing to do (the document is gone, newer, or already drawn)."""
    thumbnails.taken(document_id)
    attempt = transaction.transactional(thumbnails.begin)(tenant_id, document_id, version_number)
    if attempt is None:
        return None
    try:
        drawn = drawing.draw(attempt)
    except limits.PROCESS_LIMIT_ERRORS as exc:
        # A limit is the document's outcome, not a crash: the type icon with the reason, and
        # the job returns normally so that RQ does not retry it (a retry would hit it again).
        limits.stand_down()
        drawn = drawing.fallback(attempt, limits.reason(exc))
    return transaction.transactional(thumbnails.store)(attempt, drawn)

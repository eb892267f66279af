"""The thumbnail jobs: a batch of new content's thumbnails (enqueued by
services/thumbnails/thumbnails.py once an upload, a new version or an import's batch has
committed), and one document's (when a missing thumbnail is asked for, and the CLI). They run
in a work horse under the extraction's limits (memory ceiling, CPU budget per document:
jobs/worker.py); the attempts are committed before the drawing starts, so a horse that dies
leaves a count of them."""

from __future__ import annotations

from services.core import transaction
from services.search import limits
from services.thumbnails import drawing, thumbnails

# The jobs the worker runs under the extraction limits, and how many documents a run works.
JOBS_UNDER_LIMITS = {
    thumbnails.THUMBNAIL_JOB: lambda args: 1,
    thumbnails.BATCH_JOB: lambda args: len(args[1]),
}

# The batch jobs, and how many documents a run takes at most (jobs/worker.py folds waiting ones).
BATCH_JOBS = {thumbnails.BATCH_JOB: thumbnails.BATCH}


def make_thumbnails(tenant_id: str, items: list[list]) -> dict[str, int]:
    """Draw and keep the thumbnails of a batch of one tenant's [document, version]s: the
    attempts recorded together, each drawn under its own CPU budget, the pictures kept
    together. How many of each kind (page, image, text, icon) were kept.

    A document whose earlier attempt never finished (its process died) gets a job of its own,
    so it can stop only itself (drawing.draw gives up on it after MAX_ATTEMPTS). A document
    that hits a process limit gets the type icon with the reason, and the documents after it
    go to a new job, in a fresh process."""
    thumbnails.taken([document_id for document_id, _ in items])
    begun = transaction.transactional(thumbnails.begin_many)(
        tenant_id, [(document_id, version) for document_id, version in items]
    )
    drawn, later = limits.work_batch(begun, drawing.draw, drawing.fallback)
    kinds = transaction.transactional(thumbnails.store_many)(drawn)
    for attempts in later:
        thumbnails.schedule_new_content(
            [(a.tenant_id, a.document_id, a.version_number) for a in attempts]
        )
    return {kind: kinds.count(kind) for kind in set(kinds) if kind is not None}


def make_thumbnail(tenant_id: str, document_id: str, version_number: int) -> str | None:
    """Draw and keep one version's thumbnail; returns its kind (page, image, text, icon), or
    None when there was nothing to do (the document is gone, newer, or already drawn)."""
    thumbnails.taken([document_id])
    attempt = transaction.transactional(thumbnails.begin)(tenant_id, document_id, version_number)
    if attempt is None:
        return None
    limits.next_document()
    try:
        drawn = drawing.draw(attempt)
    except limits.PROCESS_LIMIT_ERRORS as exc:
        # A limit is the document's outcome, not a crash: the type icon with the reason, and
        # the job returns normally so that RQ does not retry it (a retry would hit it again).
        limits.stand_down()
        drawn = drawing.fallback(attempt, limits.reason(exc))
    return transaction.transactional(thumbnails.store)(attempt, drawn)

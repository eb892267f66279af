"""Drawing a thumbnail for an attempt (services/thumbnails/thumbnails.py begins and stores
it): the only way into the renderer, so only the job worker's thumbnail job loads Pillow
(services/thumbnails/render.py) and web processes never do."""

from __future__ import annotations

from flask import current_app

from services.documents.blobs import blob_store
from services.documents.storage import local_path
from services.thumbnails import render
from services.thumbnails.thumbnails import MAX_ATTEMPTS, Attempt


def draw(attempt: Attempt) -> render.Thumbnail:
    """The picture of the attempt's version (outside any unit of work: it may take seconds)."""
    settings = render.Settings.from_config(current_app.config)
    if attempt.attempts > MAX_ATTEMPTS:
        reason = f"gave up after {MAX_ATTEMPTS} attempts"
        return render.icon(attempt.content_type, attempt.filename, settings, reason)
    try:
        with local_path(blob_store(), attempt.tenant_id, attempt.sha256) as path:
            return render.render(path, attempt.content_type, attempt.filename, settings)
    except FileNotFoundError:
        reason = "the stored content is missing"
        return render.icon(attempt.content_type, attempt.filename, settings, reason)


def fallback(attempt: Attempt, error: str) -> render.Thumbnail:
    """The type icon, for an attempt a process limit stopped."""
    settings = render.Settings.from_config(current_app.config)
    return render.icon(attempt.content_type, attempt.filename, settings, error)

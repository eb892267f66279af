"""What the tenant's classifier says of a document: each tag's score, for `auto` rules and
for `GET /documents/{id}/suggestions`. Each process keeps the last few tenants' models,
keyed by tenant and training, and reloads one only when a training replaced it; a model is
only ever read for the tenant whose row holds it."""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from datetime import datetime

from sqlalchemy import select

from extensions import db
from models.documents import Document
from models.matching import TagClassifier
from models.search import DocumentText
from services.matching import classifier

log = logging.getLogger(__name__)

CACHED_MODELS = 8  # tenants' models a process keeps
SUGGEST_MIN = 0.2  # the lowest score a suggestion shows
MAX_SUGGESTIONS = 10

_cache: OrderedDict[str, tuple[str, datetime, classifier.Model]] = OrderedDict()
_lock = threading.Lock()


def model_for(tenant_id: str) -> classifier.Model | None:
    """The tenant's model, None before its first training (or if it cannot be read)."""
    row = db.session.execute(
        select(TagClassifier.id, TagClassifier.trained_at).where(
            TagClassifier.tenant_id == tenant_id
        )
    ).first()
    if row is None:
        return None
    with _lock:
        cached = _cache.get(tenant_id)
        if cached is not None and (cached[0], cached[1]) == (row.id, row.trained_at):
            _cache.move_to_end(tenant_id)
            return cached[2]
    stored = db.session.execute(
        select(TagClassifier.tags, TagClassifier.model).where(
            TagClassifier.id == row.id, TagClassifier.tenant_id == tenant_id
        )
    ).first()
    if stored is None:
        return None
    try:
        model = classifier.Model.load(stored.model, list(stored.tags))
    except (ValueError, KeyError, OSError) as exc:
        log.warning(
            "a tag classifier could not be read", extra={"tenant_id": tenant_id, "error": str(exc)}
        )
        return None
    with _lock:
        _cache[tenant_id] = (row.id, row.trained_at, model)
        _cache.move_to_end(tenant_id)
        while len(_cache) > CACHED_MODELS:
            _cache.popitem(last=False)
    return model


def forget(tenant_id: str | None = None) -> None:
    """Drop the cached models (one tenant's, or all)."""
    with _lock:
        if tenant_id is None:
            _cache.clear()
        else:
            _cache.pop(tenant_id, None)


def scores(tenant_id: str, title: str, content: str) -> dict[str, float]:
    model = model_for(tenant_id)
    return model.scores(title, content) if model is not None else {}


def suggestions(document: Document) -> list[dict[str, float | str]]:
    """Tags the document does not have whose score reaches SUGGEST_MIN, best first; empty
    while the tenant has no model."""
    model = model_for(document.tenant_id)
    if model is None:
        return []
    content = db.session.scalar(
        select(DocumentText.text).where(
            DocumentText.document_id == document.id, DocumentText.tenant_id == document.tenant_id
        )
    )
    found = model.scores(document.title or "", content or "")
    have = set(document.tag_names)
    best = sorted(
        ((tag, score) for tag, score in found.items() if score >= SUGGEST_MIN and tag not in have),
        key=lambda pair: (-pair[1], pair[0]),
    )
    return [{"name": tag, "score": round(score, 4)} for tag, score in best[:MAX_SUGGESTIONS]]

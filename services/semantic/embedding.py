"""Owns the semantic vectors of documents: scheduling the background job that embeds a
document's passages (in batches, with retries) and the units of work it runs
(jobs/semantic.py commits each), its status per document (`document_embeddings`), and the
nearest passages and documents for a query or a document.

Vectors are compared only within one model ("openai:<model>", "local:<dir>"): after the
operator changes DMS_EMBEDDINGS_MODEL, every document counts as not embedded until its job
has run again (`flask documents embed --all`), and its old vectors are replaced then."""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from flask import current_app
from redis.exceptions import RedisError
from rq import Retry
from sqlalchemy import or_, select

import clock
from extensions import db, redis_store
from models import Document
from models.search import Passage
from models.semantic import DocumentEmbedding, EmbeddingStatus
from services.core import queue
from services.semantic import embedders, vectors

log = logging.getLogger("dms.semantic")

EMBED_JOB = "jobs.semantic.embed_document"
# The job itself is tried again after the endpoint kept failing through its own attempts.
EMBED_RETRY = Retry(max=3, interval=[60, 300, 900])
EMBED_TIMEOUT = 30 * 60
# Query vectors are kept this long, so the pages of one search embed its text once.
QUERY_CACHE_SECONDS = 3600


def enabled() -> bool:
    return embedders.kind() != "none"


def status() -> dict:
    """What /internal/health reports: the adapter, the vector engine, and whether semantic
    search is on (both configured and available) or why not."""
    kind = embedders.kind()
    available, detail = vectors.status()
    body = {
        "ok": True,  # search works either way; this only says whether it is hybrid
        "embeddings": kind,
        "vectorEngine": vectors.engine_name(),
        "vectorEngineAvailable": available,
        "detail": detail,
        "semanticSearch": kind != "none" and available,
    }
    if kind != "none":
        try:
            body["model"] = embedders.embedder().name
        except embedders.EmbeddingError as exc:
            body["semanticSearch"] = False
            body["detail"] = str(exc)
    return body


def active() -> bool:
    """Whether searches use the semantic signal: embeddings on, settings valid, engine here."""
    if not enabled() or not vectors.status()[0]:
        return False
    try:
        embedders.embedder()
    except embedders.EmbeddingError:
        return False
    return True


# --- the job's units of work (jobs/semantic.py commits each) ----------------------------------


@dataclass(frozen=True)
class Attempt:
    """One embedding attempt on a document: the passages it embeds, as they were when it
    began."""

    tenant_id: str
    document_id: str
    passages: list[tuple[str, str]]  # (passage id, text), in order


def _row(tenant_id: str, document_id: str) -> DocumentEmbedding:
    row = db.session.scalar(
        select(DocumentEmbedding).where(
            DocumentEmbedding.document_id == document_id,
            DocumentEmbedding.tenant_id == tenant_id,
        )
    )
    if row is None:
        row = DocumentEmbedding(document_id=document_id, tenant_id=tenant_id, attempts=0)
        db.session.add(row)
    return row


def schedule(tenant_id: str, document_id: str) -> bool:
    """Mark the document pending and enqueue its embedding job (after the passages are
    committed). False when embeddings are off or Redis failed (`flask documents embed`
    picks the document up later).

    A follow-up unit of work of its own (like extraction_runs.schedule_extraction): it commits the
    pending state before enqueueing, so the worker always finds it, then the job's id."""
    if not enabled():
        return False
    row = _row(tenant_id, document_id)
    row.status = EmbeddingStatus.PENDING.value
    row.updated_at = clock.now()
    db.session.commit()  # the pending state stands before the job that reads it is enqueued
    try:
        job = queue.enqueue(
            EMBED_JOB, tenant_id, document_id, job_timeout=EMBED_TIMEOUT, retry=EMBED_RETRY
        )
    except RedisError as exc:
        log.warning(
            "could not enqueue embedding; `flask documents embed --all` will",
            extra={"document_id": document_id, "error": str(exc)},
        )
        return False
    row.job_id = job.id
    db.session.commit()  # the job's id, a unit of work after the enqueue
    return True


def begin(tenant_id: str, document_id: str) -> Attempt | None:
    """Count an attempt on the document and read its passages (None: the document is gone)."""
    document = db.session.scalar(
        select(Document.id).where(Document.id == document_id, Document.tenant_id == tenant_id)
    )
    if document is None:
        return None
    row = _row(tenant_id, document_id)
    row.attempts += 1
    row.updated_at = clock.now()
    passages = db.session.execute(
        select(Passage.id, Passage.text)
        .where(Passage.document_id == document_id, Passage.tenant_id == tenant_id)
        .order_by(Passage.ordinal)
    ).all()
    return Attempt(tenant_id, document_id, [(p.id, p.text) for p in passages])


def compute(attempt: Attempt) -> tuple[str, list[list[float]]]:
    """The model's name and the vectors of the attempt's passages, in batches of
    DMS_EMBEDDINGS_BATCH; raises EmbeddingError. Called outside any transaction: the
    endpoint may take its time."""
    embedder = embedders.embedder()
    batch = max(1, int(current_app.config.get("DMS_EMBEDDINGS_BATCH", 32)))
    texts = [text for _, text in attempt.passages]
    computed: list[list[float]] = []
    for start in range(0, len(texts), batch):
        computed.extend(embedder.embed(texts[start : start + batch]))
    return embedder.name, computed


def record_failure(attempt: Attempt, error: embedders.EmbeddingError, *, final: bool) -> str:
    """Note why the attempt failed; the document is failed unless the job tries again."""
    row = _row(attempt.tenant_id, attempt.document_id)
    row.error = str(error)[:300]
    row.updated_at = clock.now()
    if final or not error.retryable:
        row.status = EmbeddingStatus.FAILED.value
        log.warning(
            "embedding failed", extra={"document_id": attempt.document_id, "error": str(error)}
        )
    return row.status


def store(attempt: Attempt, model: str, computed: list[list[float]]) -> str:
    """Replace the document's vectors with `computed`, unless its passages changed since the
    attempt began (a newer job embeds those); returns the status."""
    tenant_id, document_id = attempt.tenant_id, attempt.document_id
    current = db.session.scalars(
        select(Passage.id)
        .where(Passage.document_id == document_id, Passage.tenant_id == tenant_id)
        .order_by(Passage.ordinal)
    ).all()
    if list(current) != [passage_id for passage_id, _ in attempt.passages]:
        log.info(
            "passages changed while embedding; left to the newer job",
            extra={"document_id": document_id},
        )
        return EmbeddingStatus.PENDING.value
    available, detail = vectors.status()
    row = _row(tenant_id, document_id)
    now = clock.now()
    if not available:
        row.status = EmbeddingStatus.FAILED.value
        row.error = detail[:300]
    else:
        vectors.remove_document(document_id)
        ids = [(passage_id, tenant_id, document_id) for passage_id, _ in attempt.passages]
        vectors.store(ids, computed, model, now)
        row.status = EmbeddingStatus.DONE.value
        row.model = model
        row.dimensions = len(computed[0]) if computed else None
        row.passages = len(attempt.passages)
        row.error = None
        row.embedded_at = now
    row.updated_at = now
    return row.status


def to_embed(tenant_id: str | None = None, *, everything: bool = False) -> list[tuple[str, str]]:
    """(tenant_id, document_id) of the documents whose vectors are missing, failed, or from
    another model than the configured one (all documents with `everything`)."""
    model = embedders.embedder().name
    stmt = (
        select(Document.tenant_id, Document.id)
        .outerjoin(DocumentEmbedding, DocumentEmbedding.document_id == Document.id)
        .order_by(Document.tenant_id, Document.id)
    )
    if not everything:
        stmt = stmt.where(
            or_(
                DocumentEmbedding.document_id.is_(None),
                DocumentEmbedding.status != EmbeddingStatus.DONE.value,
                DocumentEmbedding.model.is_distinct_from(model),
            )
        )
    if tenant_id is not None:
        stmt = stmt.where(Document.tenant_id == tenant_id)
    return [(r[0], r[1]) for r in db.session.execute(stmt).all()]


def forget(document_id: str) -> None:
    """Drop a purged document's vectors (its status row goes with the document)."""
    if enabled():
        vectors.remove_document(document_id)


# --- retrieval -------------------------------------------------------------------------------


def query_vector(text: str) -> list[float] | None:
    """The vector of a search text (cached in Redis by model and text), or None when it cannot
    be had now: the search then goes on without the semantic signal."""
    try:
        embedder = embedders.embedder()
    except embedders.EmbeddingError:
        return None
    key = redis_store.key(
        "semantic", "q", hashlib.sha256(f"{embedder.name}\0{text}".encode()).hexdigest()
    )
    try:
        cached = redis_store.client.get(key)
        if cached:
            return json.loads(cached)
    except RedisError:
        pass
    try:
        vector = embedder.embed([text], attempts=1)[0]
    except embedders.EmbeddingError as exc:
        log.warning("query not embedded; keyword search only", extra={"error": str(exc)})
        return None
    with contextlib.suppress(RedisError):
        redis_store.client.set(key, json.dumps(vector), ex=QUERY_CACHE_SECONDS)
    return vector


def nearest_documents(
    tenant_id: str, vector: Sequence[float], k: int, before: datetime, *, exclude: str = ""
) -> dict[str, float]:
    """{document_id: best passage similarity} of up to `k` documents nearest to `vector`, at
    or above DMS_SEMANTIC_MIN_SIMILARITY, best first; passages deleted since are skipped, and
    so is the document `exclude` (with room made for its own passages)."""
    model = embedders.embedder().name
    floor = float(current_app.config.get("DMS_SEMANTIC_MIN_SIMILARITY", 0.3))
    room = 0
    if exclude:
        own = db.session.scalar(
            select(DocumentEmbedding.passages).where(
                DocumentEmbedding.document_id == exclude, DocumentEmbedding.tenant_id == tenant_id
            )
        )
        room = own or 0
    hits = vectors.nearest(tenant_id, model, vector, k * 4 + room, before)
    live = set(
        db.session.scalars(
            select(Passage.id).where(
                Passage.tenant_id == tenant_id, Passage.id.in_([h[0] for h in hits])
            )
        )
    )
    best: dict[str, float] = {}
    for passage_id, document_id, similarity in hits:
        if document_id == exclude or document_id in best:
            continue
        if passage_id in live and similarity >= floor:
            best[document_id] = round(similarity, 6)
    return dict(list(best.items())[:k])


def nearest_passages(
    tenant_id: str, vector: Sequence[float], k: int, document_ids: Sequence[str] | None = None
) -> list[tuple[str, str, float]]:
    """Up to `k` (passage_id, document_id, similarity) nearest to `vector`, at or above the
    floor, optionally only inside `document_ids`: what the copilot retrieves."""
    model = embedders.embedder().name
    floor = float(current_app.config.get("DMS_SEMANTIC_MIN_SIMILARITY", 0.3))
    wanted = set(document_ids) if document_ids is not None else None
    hits = vectors.nearest(tenant_id, model, vector, k * 8 if wanted else k * 2, clock.now())
    live = set(
        db.session.scalars(
            select(Passage.id).where(
                Passage.tenant_id == tenant_id, Passage.id.in_([h[0] for h in hits])
            )
        )
    )
    found = [
        hit
        for hit in hits
        if hit[0] in live and hit[2] >= floor and (wanted is None or hit[1] in wanted)
    ]
    return found[:k]


def document_vector(document: Document) -> list[float] | None:
    """The mean of a document's passage vectors (the current model's), or None."""
    model = embedders.embedder().name
    rows = vectors.document_vectors(document.tenant_id, document.id, model)
    if not rows:
        return None
    size = len(rows[0])
    return [sum(row[i] for row in rows) / len(rows) for i in range(size)]

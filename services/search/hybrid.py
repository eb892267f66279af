"""Owns hybrid search: the keyword ranking (services/search/search.py) fused with the semantic
neighbours of the query (services/semantic) by reciprocal rank fusion, when embeddings are on
and the database has a vector engine; keyword search alone otherwise.

Fusion (docs/semantic.md): the keyword list's first WINDOW hits and the SEMANTIC_K
documents whose passages are nearest to the query (cosine similarity >= the floor, inside the
filters) are fused with

    score(d) = 1 / (RRF_K + keyword_rank(d)) + 1 / (RRF_K + semantic_rank(d))

(a missing rank adds nothing), rounded to SCORE_DECIMALS; ties go by id. Keyword hits past the
window keep the keyword order after every fused hit, scored 1 / (RRF_K + keyword_rank): since
SEMANTIC_K <= WINDOW, each of them scores below every fused hit, so the whole list is one order.

Paging: the cursor holds the walk's instant (`as_of`) and either the last fused hit's
(score, id) or, past the window, its keyword rank and keyword position. Each page fuses the
same lists again: the query vector comes from a cache, keyword scores are pinned by `as_of`,
and vectors stored after `as_of` are left out, so a walk over unchanged documents sees every
hit exactly once. Documents changed during a walk can move across a page boundary, as in any
rank fusion."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select

import clock
from errors import DomainError
from extensions import db
from models import Document
from services.documents.filters import DocumentFilters, apply_filters
from services.search import query_syntax
from services.search import search as keyword
from services.search.scoring import RECENCY_HALF_LIFE_DAYS, SCORE_DECIMALS
from services.semantic import embedding

RRF_K = 60
WINDOW = 200  # keyword hits fused
SEMANTIC_K = 100  # semantic neighbours fused (at most WINDOW)
_FUSED, _TAIL = "h", "t"


def search(
    tenant_id: str,
    q: str,
    filters: DocumentFilters,
    limit: int,
    cursor: list[Any] | None = None,
    *,
    recency: bool = True,
) -> keyword.SearchPage:
    """One page of hits, hybrid when semantic search is active (see the module)."""
    if cursor is not None and len(cursor) == 3:  # a keyword-only walk stays one
        return keyword.search(tenant_id, q, filters, limit, cursor, recency=recency)
    text = semantic_text(q)
    if not text or not embedding.active():
        if cursor is not None:
            raise _invalid()
        return keyword.search(tenant_id, q, filters, limit, None, recency=recency)
    phase, as_of, position = _read(cursor) if cursor is not None else (_FUSED, clock.now(), None)
    vector = embedding.query_vector(text)
    if vector is None:
        if cursor is not None:  # cannot go on with the same ranking
            raise DomainError(
                503, "SERVICE_UNAVAILABLE", "The embeddings service is unavailable; search again."
            )
        return keyword.search(tenant_id, q, filters, limit, None, recency=recency)
    window = keyword.search(
        tenant_id, q, filters, WINDOW, None, recency=recency, as_of=as_of, with_highlights=False
    )
    semantic = _semantic(tenant_id, vector, filters, as_of)
    hits: list[keyword.Hit] = []
    next_position = None
    if phase == _FUSED:
        fused = _fuse(tenant_id, window.hits, semantic, recency, as_of)
        if position is not None:
            score, ident = position
            fused = [h for h in fused if (-h.score, h.id) > (-score, ident)]
        hits = fused[:limit]
        if len(fused) > limit:
            last = hits[-1]
            next_position = [_FUSED, last.score, last.id, as_of.isoformat()]
        elif window.next_position is not None:
            tail, next_position = _tail(
                tenant_id,
                q,
                filters,
                limit - len(hits),
                window.next_position,
                WINDOW,
                set(semantic),
                recency,
                as_of,
            )
            hits += tail
    else:
        rank, kw_position = position
        hits, next_position = _tail(
            tenant_id, q, filters, limit, kw_position, rank, set(semantic), recency, as_of
        )
    _highlight(tenant_id, q, hits)
    used = list(window.signals_used) if any(h.signals.get("keyword") for h in hits) else []
    if any("semantic" in h.signals for h in hits):
        used.append("semantic")
    return keyword.SearchPage(hits, next_position, used)


def semantic_text(q: str) -> str:
    """The words a query looks for (its exclusions and operators left out)."""
    query = query_syntax.parse(q)
    return " ".join(" ".join(term.words) for group in query.groups for term in group)


def _semantic(
    tenant_id: str, vector: list[float], filters: DocumentFilters, as_of: datetime
) -> dict[str, float]:
    near = embedding.nearest_documents(tenant_id, vector, SEMANTIC_K, as_of)
    if not near:
        return {}
    allowed = set(
        db.session.scalars(
            apply_filters(select(Document.id), tenant_id, filters).where(
                Document.id.in_(list(near))
            )
        )
    )
    return {ident: similarity for ident, similarity in near.items() if ident in allowed}


def _fuse(
    tenant_id: str,
    keyword_hits: list[keyword.Hit],
    semantic: dict[str, float],
    recency: bool,
    as_of: datetime,
) -> list[keyword.Hit]:
    by_id: dict[str, keyword.Hit] = {}
    scores: dict[str, float] = {}
    for rank, hit in enumerate(keyword_hits, start=1):
        by_id[hit.id] = hit
        scores[hit.id] = 1.0 / (RRF_K + rank)
    missing = [ident for ident in semantic if ident not in by_id]
    documents = Document.get_many_for_tenant(missing, tenant_id)
    for rank, (ident, similarity) in enumerate(semantic.items(), start=1):
        hit = by_id.get(ident)
        if hit is None:
            if ident not in documents:
                continue
            signals = {"keyword": 0.0}
            if recency:
                signals["recency"] = _recency(documents[ident], as_of)
            hit = by_id[ident] = keyword.Hit(ident, 0.0, signals)
        hit.signals["semantic"] = similarity
        scores[ident] = scores.get(ident, 0.0) + 1.0 / (RRF_K + rank)
    for ident, hit in by_id.items():
        hit.score = round(scores[ident], SCORE_DECIMALS)
    return sorted(by_id.values(), key=lambda h: (-h.score, h.id))


def _tail(
    tenant_id: str,
    q: str,
    filters: DocumentFilters,
    need: int,
    kw_position: list[Any],
    rank: int,
    skip: set[str],
    recency: bool,
    as_of: datetime,
) -> tuple[list[keyword.Hit], list[Any] | None]:
    """Keyword hits after `kw_position` (whose rank is `rank`), leaving out those already fused
    for their semantic rank; the next cursor when more follow."""
    hits: list[keyword.Hit] = []
    if need <= 0:
        return hits, [_TAIL, rank, *kw_position]
    page = keyword.search(
        tenant_id,
        q,
        filters,
        need + len(skip),
        kw_position,
        recency=recency,
        with_highlights=False,
    )
    position = kw_position
    for hit in page.hits:
        if len(hits) == need:
            return hits, [_TAIL, rank, *position]
        rank += 1
        position = [hit.score, hit.id, as_of.isoformat()]
        if hit.id in skip:
            continue
        hit.score = round(1.0 / (RRF_K + rank), SCORE_DECIMALS)
        hits.append(hit)
    if page.next_position is None:
        return hits, None
    return hits, [_TAIL, rank, *position]


def _highlight(tenant_id: str, q: str, hits: list[keyword.Hit]) -> None:
    found = keyword.highlights(tenant_id, q, [h.id for h in hits])
    for hit in hits:
        hit.highlights = found.get(hit.id, [])


def _recency(document: Document, as_of: datetime) -> float:
    age_days = max((as_of - document.updated_at).total_seconds() / 86400, 0.0)
    return round(1.0 / (1.0 + age_days / RECENCY_HALF_LIFE_DAYS), SCORE_DECIMALS)


def _invalid() -> DomainError:
    return DomainError(400, "INVALID_CURSOR", "This cursor is not valid.", "cursor")


def _read(cursor: list[Any]) -> tuple[str, datetime, Any]:
    """A hybrid cursor: ["h", score, id, as_of] or ["t", rank, kw_score, kw_id, as_of]."""
    try:
        if cursor[0] == _FUSED and len(cursor) == 4:
            _, score, ident, when = cursor
            as_of, (score, ident) = keyword.read_position([score, ident, when])
            return _FUSED, as_of, (score, ident)
        if cursor[0] == _TAIL and len(cursor) == 5:
            _, rank, score, ident, when = cursor
            if not isinstance(rank, int) or isinstance(rank, bool) or rank < WINDOW:
                raise _invalid()
            as_of, _ = keyword.read_position([score, ident, when])
            return _TAIL, as_of, (rank, [score, ident, when])
    except (TypeError, IndexError):
        pass
    raise _invalid()

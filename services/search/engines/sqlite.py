"""The SQLite search engine: the FTS5 table `document_search`, bm25 for relevance,
highlight() and snippet() for highlights (see services/search.py)."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Select, column, func, literal, literal_column, select, table

from extensions import db
from models import Document
from services.documents.filters import DocumentFilters, apply_filters
from services.search.indexing import fts_rowid
from services.search.query_syntax import SearchQuery
from services.search.scoring import (
    MARK_END,
    MARK_START,
    RECENCY_HALF_LIFE_DAYS,
    RECENCY_WEIGHT,
    SCORE_DECIMALS,
)

FTS = table("document_search", column("rowid"), column("document_id"), column("tenant_id"))
_FTS_NAME = literal_column("document_search")
# bm25 column weights: title, keywords (tags and metadata), body, then the unindexed ids.
_WEIGHTS = (10.0, 4.0, 1.0, 0.0, 0.0)
_SNIPPET_TOKENS = 24


def _match(query: SearchQuery):
    return _FTS_NAME.op("MATCH")(literal(query.fts5()))


def prepare() -> None:
    """Nothing to set: FTS5 always answers MATCH from its own index."""


def path() -> str:
    """FTS5 answers every search from its own index: one path."""
    return "fts5"


def ranked(
    tenant_id: str,
    query: SearchQuery,
    filters: DocumentFilters,
    as_of: datetime,
    recency: bool,
    *,
    bounded: bool = False,
) -> Select:
    """id, keyword, recency and score of every matching document in the tenant."""
    keyword = -func.bm25(_FTS_NAME, *_WEIGHTS)
    stored_as_of = as_of.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")
    age_days = func.max(func.julianday(stored_as_of) - func.julianday(Document.updated_at), 0)
    recency_signal = 1.0 / (1.0 + age_days / RECENCY_HALF_LIFE_DAYS)
    raw = keyword * (1.0 + RECENCY_WEIGHT * recency_signal) if recency else keyword
    stmt = (
        select(
            Document.id.label("id"),
            func.round(keyword, SCORE_DECIMALS).label("keyword"),
            recency_signal.label("recency"),
            func.round(raw, SCORE_DECIMALS).label("score"),
        )
        .select_from(FTS)
        .join(Document, Document.id == FTS.c.document_id)
        .where(_match(query), FTS.c.tenant_id == tenant_id)
    )
    return apply_filters(stmt, tenant_id, filters)


def highlights(
    tenant_id: str, query: SearchQuery, ids: list[str]
) -> dict[str, list[tuple[str, str]]]:
    """(field, snippet with markers) per document of the page."""
    stmt = select(
        FTS.c.document_id,
        func.highlight(_FTS_NAME, 0, MARK_START, MARK_END),
        func.snippet(_FTS_NAME, 2, MARK_START, MARK_END, "…", _SNIPPET_TOKENS),
    ).where(
        _match(query),
        FTS.c.tenant_id == tenant_id,
        FTS.c.rowid.in_([fts_rowid(i) for i in ids]),
    )
    return {
        doc_id: [("title", title), ("text", body)]
        for doc_id, title, body in db.session.execute(stmt)
    }

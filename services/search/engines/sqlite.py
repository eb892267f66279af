"""The SQLite search engine: the FTS5 table `document_search`, bm25 for relevance,
highlight() and snippet() for highlights (see services/search.py).

The bounded path (docs/search.md, "What to expect from SQLite at 100,000 documents"): ranking
every match of a common word computes its bm25 and reads its document (found by rowid in
`document_search_ids`). `ranked(..., bounded="candidates")` takes the CANDIDATES best matches by
bm25 from FTS5 alone and ranks only those; `page_stands()` keeps the page when it is provably
the exact path's page, else search.py runs the exact path."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    Select,
    String,
    bindparam,
    column,
    func,
    literal,
    literal_column,
    select,
    table,
)
from sqlalchemy.orm import aliased

from extensions import db
from models import Document
from services.documents.filters import DocumentFilters, apply_filters
from services.search import fts5_rows
from services.search.query_syntax import SearchQuery
from services.search.scoring import (
    MARK_END,
    MARK_START,
    RECENCY_HALF_LIFE_DAYS,
    RECENCY_WEIGHT,
    SCORE_DECIMALS,
)

FTS = table("document_search", column("rowid"), column("document_id"), column("tenant_id"))
# Each FTS5 row's document and tenant by rowid (migration 0029): read without FTS5 loading
# the stored row, text included, for its UNINDEXED document_id (1.4 µs a row, not 4).
IDS = table("document_search_ids", column("fts_rowid"), column("document_id"), column("tenant_id"))
_FTS_NAME = literal_column("document_search")
# bm25 column weights: title, keywords (tags and metadata), body, then the unindexed ids.
_WEIGHTS = (10.0, 4.0, 1.0, 0.0, 0.0)
_SNIPPET_TOKENS = 24
# Matches ranked by the bounded path (of all tenants: bm25 orders them before any stored row
# is read, so the tenant is checked after). Only speed depends on it, never the results:
# more candidates cost more reads, fewer prove fewer pages (each unproven page also pays
# the exact path). At 100,000 documents 1,000 proved 26 of 30 common-word pages where a
# document had changed just now (500: 19), for about 5 ms more (docs/search.md).
CANDIDATES = 1000


def _match(query: SearchQuery, as_parameters: bool = False):
    value = bindparam("match", type_=String) if as_parameters else literal(query.fts5())
    return _FTS_NAME.op("MATCH")(value)


def _stored(as_of: datetime) -> str:
    """`as_of` as updated_at is stored, so julianday() reads both alike."""
    return as_of.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")


def shape(_query: SearchQuery) -> tuple:
    """What a statement built with bind parameters depends on: nothing of the query (its
    MATCH expression is one bind value)."""
    return ()


def bind_values(tenant_id: str, query: SearchQuery, as_of: datetime) -> dict[str, object]:
    """The values of a statement built with `as_parameters=True` (ranked())."""
    return {"tenant_id": tenant_id, "as_of": _stored(as_of), "match": query.fts5()}


def prepare(_tenant_id: str, _query: SearchQuery, _rows: int) -> tuple[str, ...]:
    """Nothing to set (FTS5 always answers MATCH from its own index); every query tries the
    bounded path first: a page is kept only when proven exact."""
    return ("candidates",)


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
    bounded: str | None = None,
    as_parameters: bool = False,
) -> Select:
    """id, keyword, recency and score of every matching document in the tenant; `bounded`:
    of the CANDIDATES best matches by bm25 only (all tenants' matches compete, this tenant's
    are kept), with `window`, how many candidates there were (fewer than CANDIDATES: every
    match), and `bound`, no left-out match scores above it (page_stands()). `as_parameters`:
    the tenant, `as_of` and the MATCH expression are bind parameters
    (bind_values()), so the statement is built once and reused (search.py)."""
    if as_parameters:
        tenant_id = bindparam("tenant_id", type_=String)
        stored_as_of = bindparam("as_of", type_=String)
    else:
        stored_as_of = _stored(as_of)

    def recency_of(updated_at):
        age_days = func.max(func.julianday(stored_as_of) - func.julianday(updated_at), 0)
        return 1.0 / (1.0 + age_days / RECENCY_HALF_LIFE_DAYS)

    def scored(keyword, *extra) -> Select:
        recency_signal = recency_of(Document.updated_at)
        raw = keyword * (1.0 + RECENCY_WEIGHT * recency_signal) if recency else keyword
        return select(
            Document.id.label("id"),
            func.round(keyword, SCORE_DECIMALS).label("keyword"),
            recency_signal.label("recency"),
            func.round(raw, SCORE_DECIMALS).label("score"),
            *extra,
        )

    if not bounded:
        stmt = (
            scored(-func.bm25(_FTS_NAME, *_WEIGHTS))
            .select_from(FTS)
            .join(IDS, IDS.c.fts_rowid == FTS.c.rowid)
            .join(Document, Document.id == IDS.c.document_id)
            .where(_match(query, as_parameters), IDS.c.tenant_id == tenant_id)
        )
        return apply_filters(stmt, tenant_id, filters)

    # The best CANDIDATES by bm25 (ascending: FTS5's bm25 is the negated relevance). Only
    # rowid and bm25 are selected, so SQLite's sorter keeps the best rows without FTS5
    # loading any stored row; then each candidate's document and tenant are read by rowid.
    bm25 = func.bm25(_FTS_NAME, *_WEIGHTS).label("bm25")
    best = (
        select(FTS.c.rowid.label("rowid"), bm25)
        .where(_match(query, as_parameters))
        .order_by(bm25)
        .limit(CANDIDATES)
        .subquery("best")
    )
    candidates = (
        select(IDS.c.document_id, IDS.c.tenant_id, best.c.bm25)
        .select_from(best.join(IDS, IDS.c.fts_rowid == best.c.rowid))
        .cte("candidates")
    )
    # A match left out has keyword <= the worst candidate's (all tenants' candidates: the
    # bound holds for this tenant's matches too) and recency <= that of the tenant's newest
    # document (recency falls with age; the same expression, so the same floats order alike).
    floor = -select(func.max(candidates.c.bm25)).scalar_subquery()
    newest = aliased(Document)
    newest_change = select(func.max(newest.updated_at)).where(newest.tenant_id == tenant_id)
    recency_cap = recency_of(newest_change.scalar_subquery())
    ceiling = floor * (1.0 + RECENCY_WEIGHT * recency_cap) if recency else floor
    stmt = (
        scored(
            -candidates.c.bm25,
            select(func.count()).select_from(candidates).scalar_subquery().label("window"),
            ceiling.label("bound"),
        )
        .select_from(candidates)
        .join(Document, Document.id == candidates.c.document_id)
        .where(candidates.c.tenant_id == tenant_id)
    )
    return apply_filters(stmt, tenant_id, filters)


def page_stands(_tenant_id: str, _query: SearchQuery, rows: list, limit: int) -> bool:
    """Whether a bounded page (limit + 1 rows after the cursor, best first) is the exact
    path's page. Yes when the query had fewer than CANDIDATES matches (every match was
    ranked). Else when the page is full and its last row scores above `bound`: every match
    left out scores at most `bound` before rounding, so at most `bound` + 0.5e-6 after
    rounding to SCORE_DECIMALS, and a row scoring more than `bound` + 1e-6 is ahead of all of
    them (strictly: a tie would be broken by id and might not be). The filters only remove
    candidates: a page they leave short is not proven (the exact path continues)."""
    if not rows:
        return False
    if rows[0].window < CANDIDATES:
        return True
    margin = 10.0**-SCORE_DECIMALS
    return len(rows) > limit and float(rows[-1].score) > float(rows[0].bound) + margin


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
        FTS.c.rowid.in_([fts5_rows.rowid(i) for i in ids]),
    )
    return {
        doc_id: [("title", title), ("text", body)]
        for doc_id, title, body in db.session.execute(stmt)
    }

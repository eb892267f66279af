"""The SQLite search engine: the FTS5 table `document_search`, bm25 for relevance,
highlight() and snippet() for highlights (see services/search/search.py).

The bounded path (docs/search.md, "What to expect from SQLite at 100,000 documents"): ranking
every match of a common word computes its bm25 and reads its document (found by rowid in
`document_search_ids`). `ranked(..., bounded="common")` ranks a listed common word's listed
rows and the rows written since (services/search/common_words.py); `bounded="candidates"`
takes the CANDIDATES best matches by bm25 from FTS5 alone and ranks only those;
`page_stands()` keeps the page when it is provably the exact path's page, else search.py
tries the next, and last the exact path. A page its bound leaves in doubt only by ties (a
word in more than half of all rows: its scores are all about 0) is settled by ranking the
tenant's first documents by id with the bounded rows (`settle_ties()`)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from sqlalchemy import (
    Select,
    String,
    bindparam,
    column,
    func,
    literal,
    literal_column,
    null,
    select,
    table,
    union_all,
)
from sqlalchemy.orm import aliased

from extensions import db
from models import Document
from services.documents.filters import DocumentFilters, apply_filters
from services.search import common_words, fts5_rows
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
IDS = table(
    "document_search_ids",
    column("fts_rowid"),
    column("document_id"),
    column("tenant_id"),
    column("written"),
)
# Common words' listed rows and what each list is good for (migration 0031, common_words.py).
COMMON = table("document_search_common", column("term"), column("fts_rowid"))
COMMON_TERMS = table(
    "document_search_common_terms",
    column("term"),
    column("listed_through"),
    column("ratio_ceiling"),
    column("average_length"),
)
_AVERAGES = table("document_search_data", column("id"), column("block"))  # FTS5's shadow table
_FTS_NAME = literal_column("document_search")
_WEIGHTS = fts5_rows.WEIGHTS  # title, keywords, body, the unindexed ids, notes
_SNIPPET_TOKENS = 24
# Matches ranked by the bounded path (of all tenants: bm25 orders them before any stored row
# is read, so the tenant is checked after). Only speed depends on it, never the results:
# more candidates cost more reads, fewer prove fewer pages (each unproven page also pays
# the exact path). At 100,000 documents 1,000 prove 26 of 30 common-word pages where a
# document has changed just now (500: 19), for about 5 ms more (docs/search.md).
CANDIDATES = 1000
# settle_ties() ranks every document of a tenant of at most this many, else the tenant's among
# the first this many of all by id (its page must end among them, else the exact path).
TIE_POOL = 2000


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
    term = _common_term(query)
    return {
        "tenant_id": tenant_id,
        "as_of": _stored(as_of),
        "match": query.fts5(),
        "term": term,
        "term_match": common_words.match_of(term or ""),
    }


def prepare(_tenant_id: str, query: SearchQuery, _rows: int) -> tuple[str, ...]:
    """Nothing to set (FTS5 always answers MATCH from its own index). A query for one listed
    common word tries its listed rows first, every query the best CANDIDATES: a page is kept
    only when proven exact."""
    term = _common_term(query)
    if term is not None and common_words.is_listed(term):
        return ("common", "candidates")
    return ("candidates",)


def _common_term(query: SearchQuery) -> str | None:
    """The term of a query for one word (exclusions aside: they only remove matches, and add
    nothing to a match's bm25), as FTS5 indexes it; else None."""
    if len(query.groups) != 1 or len(query.groups[0]) != 1:
        return None
    words = query.groups[0][0].words
    return common_words.term_of(words[0]) if len(words) == 1 else None


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
    of the candidates only, "candidates" the CANDIDATES best matches by bm25 (all tenants'
    matches compete, this tenant's are kept), "common" a common word's listed rows and those
    written since (_listed()), with `window`, how many candidates there were (fewer than
    CANDIDATES: every match; NULL for "common"), and `bound`, no left-out match scores above
    it (page_stands()). `as_parameters`:
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

    bm25 = func.bm25(_FTS_NAME, *_WEIGHTS).label("bm25")
    if bounded == "common":
        best, floor = _listed(query, as_parameters, bm25)
        window = null()  # unknown: some matches were left out
    elif bounded == "tied":
        # The rows of the `pool` parameter's rowids (settle_ties()): FTS5 walks every match
        # but computes bm25 for these only, as for a common word's list. No bound.
        pool = select(literal_column("value")).select_from(
            func.json_each(bindparam("pool", type_=String))
        )  # one parameter, a JSON array: not an IN of 2,000 written out on every run
        best = (
            select(FTS.c.rowid.label("rowid"), bm25)
            .where(_match(query, as_parameters), literal_column("+document_search.rowid").in_(pool))
            .subquery("best")
        )
        floor, window = null(), null()
    else:
        # The best CANDIDATES by bm25 (ascending: FTS5's bm25 is the negated relevance). Only
        # rowid and bm25 are selected, so SQLite's sorter keeps the best rows without FTS5
        # loading any stored row.
        best = (
            select(FTS.c.rowid.label("rowid"), bm25)
            .where(_match(query, as_parameters))
            .order_by(bm25)
            .limit(CANDIDATES)
            .subquery("best")
        )
        floor = None
    # Each candidate's document and tenant, read by rowid.
    candidates = (
        select(IDS.c.document_id, IDS.c.tenant_id, best.c.bm25)
        .select_from(best.join(IDS, IDS.c.fts_rowid == best.c.rowid))
        .cte("candidates")
    )
    if floor is None:
        # A match left out has keyword <= the worst candidate's (all tenants' candidates: the
        # bound holds for this tenant's matches too).
        floor = -select(func.max(candidates.c.bm25)).scalar_subquery()
        window = select(func.count()).select_from(candidates).scalar_subquery()
    # ... and recency <= that of the tenant's newest document (recency falls with age; the
    # same expression, so the same floats order alike).
    ceiling = floor
    if recency and bounded != "tied":
        newest = aliased(Document)
        newest_change = select(func.max(newest.updated_at)).where(newest.tenant_id == tenant_id)
        ceiling = floor * (1.0 + RECENCY_WEIGHT * recency_of(newest_change.scalar_subquery()))
    stmt = (
        scored(
            -candidates.c.bm25,
            window.label("window"),
            ceiling.label("bound"),
        )
        .select_from(candidates)
        .join(Document, Document.id == candidates.c.document_id)
        .where(candidates.c.tenant_id == tenant_id)
    )
    return apply_filters(stmt, tenant_id, filters)


def _listed(query: SearchQuery, as_parameters: bool, bm25) -> tuple:
    """The common word's listed rows and the rows written after its list was made, with
    their bm25 (FTS5 walks every match, but computes bm25 only for these: `+rowid` keeps the
    IN from becoming a lookup per rowid, each of which would count the matches again), and
    the keyword no row left out can exceed (common_words.keyword_ceiling)."""
    if as_parameters:
        term, term_match = bindparam("term", type_=String), bindparam("term_match", type_=String)
    else:
        word_term = _common_term(query)
        term, term_match = literal(word_term), literal(common_words.match_of(word_term or ""))

    def of_term(col):
        return select(col).where(COMMON_TERMS.c.term == term).scalar_subquery()

    changed = select(IDS.c.fts_rowid).where(IDS.c.written > of_term(COMMON_TERMS.c.listed_through))
    pool = union_all(select(COMMON.c.fts_rowid).where(COMMON.c.term == term), changed)
    best = (
        select(FTS.c.rowid.label("rowid"), bm25)
        .where(_match(query, as_parameters), literal_column("+document_search.rowid").in_(pool))
        .subquery("best")
    )
    averages = select(_AVERAGES.c.block).where(_AVERAGES.c.id == 1).scalar_subquery()
    hits = select(func.count()).select_from(FTS).where(_FTS_NAME.op("MATCH")(term_match))
    floor = getattr(func, common_words.SQL_FUNCTION)(
        averages,
        hits.scalar_subquery(),
        of_term(COMMON_TERMS.c.ratio_ceiling),
        of_term(COMMON_TERMS.c.average_length),
    )
    return best, floor


def page_stands(_tenant_id: str, _query: SearchQuery, rows: list, limit: int) -> bool:
    """Whether a bounded page (limit + 1 rows after the cursor, best first) is the exact
    path's page. Yes when the query had fewer than CANDIDATES matches (every match was
    ranked). Else when the page is full and its last row scores above `bound`: every match
    left out scores at most `bound` before rounding, so at most `bound` + 0.5e-6 after
    rounding to SCORE_DECIMALS, and a row scoring more than `bound` + 1e-6 is ahead of all of
    them (strictly: a tie would be broken by id and might not be). The filters only remove
    candidates: a page they leave short is not proven (the exact path continues). No bound
    (a common word's list dropped meanwhile): not proven."""
    if not rows:
        return False
    if rows[0].window is not None and rows[0].window < CANDIDATES:
        return True
    if rows[0].bound is None:
        return False
    margin = 10.0**-SCORE_DECIMALS
    return len(rows) > limit and float(rows[-1].score) > float(rows[0].bound) + margin


def settle_ties(tenant_id: str, rows: list, limit: int, ranking) -> list | None:
    """The exact page, when a bounded page is in doubt only by ties; else None.

    A word in more than half of all rows has an idf FTS5 clamps to almost 0: every match
    scores about 0, they tie after rounding, and no bound lies below a page's last row
    (docs/search.md). Ties are broken by id, so the exact page is the bounded rows that score
    above every match left out, then the tied matches with the smallest ids, which the
    bounded rows (the best by bm25 before rounding) seldom are. So the bounded rows are
    ranked in one statement (`ranked(bounded="tied")`) with a pool of documents: every
    document of a tenant of at most TIE_POOL, else, when ties alone leave the page in doubt
    (_tied()), the tenant's among the first TIE_POOL documents of all by id (after the
    cursor's id, when the cursor is at the tie). _settles() says whether that statement's
    page is the exact page."""
    if not rows:  # none of the tenant's documents was bounded: few of its matches, and the
        return None  # exact path about as cheap as a pool (a small tenant's two words: 3.5 ms)
    ids, end, cursor = _every_document(tenant_id), None, None
    if ids is None:
        if not _tied(rows, limit):
            return None  # a pool that is not every document settles ties only
        ids, end, cursor = _first_documents(tenant_id, rows, ranking.after)
    pool = [fts5_rows.rowid(ident) for ident in {*ids, *(row.id for row in rows)}]
    tied = ranking.rows(bounded="tied", pool=json.dumps(pool))
    return tied if _settles(rows[0].bound, tied, limit, end, cursor) else None


def _every_document(tenant_id: str) -> list[str] | None:
    """Every document id of a tenant of at most TIE_POOL (from the tenant's index), else None."""
    tenants = Document.query_for_tenant(tenant_id).with_only_columns(Document.id)
    ids = db.session.scalars(tenants.limit(TIE_POOL + 1)).all()
    return list(ids) if len(ids) <= TIE_POOL else None


def _first_documents(tenant_id: str, rows: list, after) -> tuple[list, str | None, float | None]:
    """A larger tenant's pool: (its documents among the first TIE_POOL of all by id, read in
    the primary key's order; the last id that covers, None at the end of the table; the
    cursor's score when the pool starts after the cursor's id, else None)."""
    cursor = None
    first = select(Document.id, Document.tenant_id).order_by(Document.id).limit(TIE_POOL + 1)
    if after is not None and after[0] == float(rows[-1].score):
        # A walk inside a tie: its documents up to the cursor's id are behind it, so the
        # pool starts there (and the page must end at the cursor's score, _settles()).
        cursor, first = after[0], first.where(Document.id > after[1])
    scanned = db.session.execute(first).all()
    end = scanned[TIE_POOL - 1].id if len(scanned) > TIE_POOL else None
    return [row.id for row in scanned[:TIE_POOL] if row.tenant_id == tenant_id], end, cursor


def _tied(rows: list, limit: int) -> bool:
    """Whether ties alone may leave this bounded page in doubt: it is full and no match left
    out can round above its last row (else the pool's page would seldom settle, and ranking
    it would only delay the exact path)."""
    if len(rows) <= limit or rows[0].bound is None:
        return False
    return _at_most_ties(rows[0].bound, rows[-1].score)


def _at_most_ties(bound, score) -> bool:
    """Whether no match scoring at most `bound` before rounding can round above `score`:
    `bound` is below `score` + 0.4e-6 (rounding to SCORE_DECIMALS adds at most 0.5e-6)."""
    return float(bound) < float(score) + 0.4 * 10.0**-SCORE_DECIMALS


def _settles(bound, tied: list, limit: int, end: str | None, cursor: float | None) -> bool:
    """settle_ties()'s rule on the pool's page (`tied`). It is the exact page when the pool
    holds every document of the tenant (`end` and `cursor` None). Else when it is full, no
    match left out can round above its last row (`bound` < its score + 0.4e-6), that row is
    not past the pool's last id (`end`: a match left out ties with it at most, with a larger
    id), and, when the pool starts after the cursor's id (`cursor`: its score), the page ends
    at the cursor's score (a match before that id but below that score was not ranked)."""
    if end is None and cursor is None:
        return True
    if bound is None or len(tied) <= limit:
        return False
    last = tied[-1]
    if not _at_most_ties(bound, last.score):
        return False
    if cursor is not None and float(last.score) != cursor:
        return False
    return end is None or last.id <= end


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

"""The PostgreSQL search engine: a tsquery built from websearch_to_tsquery per term, matched
against the RUM- (or GIN-) indexed tsvector, ts_rank_cd for relevance, ts_headline for
snippets (see services/search/search.py).

Candidates (docs/search.md, "Common words"): where the RUM extension is installed, migration
0023 adds a RUM index on `rank_vector`, which returns matching documents nearest first by
its own distance without reading them. `ranked(..., bounded=True)` then ranks only the
CANDIDATES nearest (and says how many there were), instead of every match of a common word.
Without the index (a managed PostgreSQL without RUM) every search takes the exact path."""

from __future__ import annotations

from datetime import datetime
from functools import reduce
from itertools import count

from sqlalchemy import (
    Float,
    Numeric,
    Select,
    String,
    bindparam,
    case,
    cast,
    extract,
    func,
    literal,
    literal_column,
    null,
    select,
    text,
)
from sqlalchemy.dialects.postgresql import TSVECTOR
from sqlalchemy.sql.functions import Function

from extensions import db
from models import Document, DocumentText
from models.base import UTCDateTime
from services.documents.filters import DocumentFilters, apply_filters
from services.search.indexing import PG_CONFIG
from services.search.query_syntax import SearchQuery, Term
from services.search.scoring import (
    HEADLINE_LEAD_CHARS,
    HEADLINE_MAX_CHARS,
    MARK_END,
    MARK_START,
    RECENCY_HALF_LIFE_DAYS,
    RECENCY_WEIGHT,
    SCORE_DECIMALS,
)

RUM_INDEX = "ix_document_texts_rank_rum"
# GIN on the rank vector (migration 0026): finds the documents whose lead matches, for the
# exact bounded path (_lead_matches), where RUM is not used (postgrespro/rum#183).
RANK_GIN_INDEX = "ix_document_texts_rank_gin"
# The full vector's index: RUM where the extension is installed (migration 0024: it keeps word
# positions, so phrases are checked inside the index), else GIN (migration 0003).
SEARCH_RUM_INDEX = "ix_document_texts_search_rum"
SEARCH_GIN_INDEX = "ix_document_texts_search_vector"
# What migrations 0003, 0023 and 0024 create (migrations keep their own frozen copy), for the
# tests that drop and recreate them and for bench/search_indexes.py.
INDEX_METHODS = {
    RUM_INDEX: "rum (rank_vector rum_tsvector_ops)",
    RANK_GIN_INDEX: "gin (rank_vector)",
    SEARCH_RUM_INDEX: "rum (search_vector rum_tsvector_ops)",
    SEARCH_GIN_INDEX: "gin (search_vector)",
}


def index_ddl(name: str) -> str:
    return f"CREATE INDEX IF NOT EXISTS {name} ON document_texts USING {INDEX_METHODS[name]}"


CANDIDATES = 500  # ranked per page when a query matches more (the bounded path)
_indexes: dict[str, frozenset[str]] = {}  # per database URL: which rank-vector indexes exist

# ts_rank_cd weights for D, C (text), B (tags and metadata), A (title).
_WEIGHTS = "{0.1, 0.1, 0.3, 1.0}"
_RANK_NORMALISATION = 32  # rank / (rank + 1): keyword scores fall in [0, 1)
_VECTOR = literal_column("document_texts.search_vector", TSVECTOR)
_RANK_VECTOR = literal_column("document_texts.rank_vector", TSVECTOR)
_HEADLINE = (
    f'StartSel="{MARK_START}", StopSel="{MARK_END}", MaxWords=30, MinWords=12, '
    'MaxFragments=2, FragmentDelimiter=" … "'
)
_TITLE_HEADLINE = f'StartSel="{MARK_START}", StopSel="{MARK_END}", HighlightAll=true'


def tsquery(query: SearchQuery, *, as_parameters: bool = False):
    """The query's tsquery, combined in SQL from one websearch_to_tsquery per term: every
    group must match, any term of a group may, no excluded term may (docs/search.md).
    (websearch_to_tsquery of the whole text reads `"a b" or c -d` as `a <-> b | (c & !d)`:
    the exclusion would bind to the last word only.) `as_parameters`: each term is the bind
    parameter term_<i> (bind_values()), so the expression depends on the query's shape only."""
    return _tsqueries(query, as_parameters)[0]


def _tsqueries(query: SearchQuery, as_parameters: bool) -> tuple:
    """The query's tsquery, and that of its groups alone (without the exclusions)."""
    config = literal_column(f"'{PG_CONFIG}'::regconfig")
    numbered = count()

    def term(t) -> Function:
        if as_parameters:
            return func.websearch_to_tsquery(config, bindparam(f"term_{next(numbered)}", String))
        return func.websearch_to_tsquery(config, literal(t.websearch()))

    groups = None
    for group in query.groups:
        either = reduce(func.tsquery_or, (term(t) for t in group))
        groups = either if groups is None else func.tsquery_and(groups, either)
    combined = groups
    for excluded in query.excluded:
        combined = func.tsquery_and(combined, func.tsquery_not(term(excluded)))
    return combined, groups


def _terms(query: SearchQuery) -> list[Term]:
    """The query's terms in the order tsquery() numbers them."""
    return [t for group in query.groups for t in group] + list(query.excluded)


def shape(query: SearchQuery) -> tuple:
    """What a statement built with bind parameters depends on: how many terms each group
    has, how many are excluded (the words themselves are bind values), and which bounded
    path the query takes (_nearest)."""
    return tuple(len(g) for g in query.groups), len(query.excluded), _nearest(query)


def _nearest(query: SearchQuery) -> bool:
    """Whether the bounded path takes the nearest candidates by RUM's distance: words that
    must all match (no alternative, no phrase), where the RUM index exists. Every other
    bounded query ranks the lead's matches (_lead_matches)."""
    words_only = all(len(g) == 1 and len(g[0].words) == 1 for g in query.groups)
    return words_only and RUM_INDEX in _rank_indexes()


def bind_values(tenant_id: str, query: SearchQuery, as_of: datetime) -> dict[str, object]:
    """The values of a statement built with `as_parameters=True` (ranked(), tsquery())."""
    return {"tenant_id": tenant_id, "as_of": as_of, **_term_values(query)}


def _term_values(query: SearchQuery) -> dict[str, str]:
    return {f"term_{i}": t.websearch() for i, t in enumerate(_terms(query))}


def prepare() -> None:
    """Match through the GIN index, never a sequential scan: the planner prices `@@` as
    cheap, but on a scan it must decompress every document's full vector (seconds at 100k
    documents for a common word), while the index answers without touching them."""
    db.session.execute(text("SET LOCAL enable_seqscan = off; SET LOCAL random_page_cost = 1.1"))


def path() -> str:
    """ "rum" when an operator created the RUM index (docs/search.md), else "gin"."""
    return "rum" if RUM_INDEX in _rank_indexes() else "gin"


def _rank_indexes() -> frozenset[str]:
    """Which of the rank vector's indexes exist; looked up once per process and database
    (forget_path() after creating or dropping one)."""
    key = db.engine.url.render_as_string()
    if key not in _indexes:
        found = db.session.execute(
            text(
                "SELECT name FROM unnest(CAST(:names AS text[])) AS name"
                " WHERE to_regclass(name) IS NOT NULL"
            ),
            {"names": [RUM_INDEX, RANK_GIN_INDEX]},
        )
        _indexes[key] = frozenset(found.scalars())
    return _indexes[key]


def forget_path() -> None:
    _indexes.clear()


def ranked(
    tenant_id: str,
    query: SearchQuery,
    filters: DocumentFilters,
    as_of: datetime,
    recency: bool,
    *,
    bounded: bool = False,
    as_parameters: bool = False,
) -> Select:
    """id, keyword, recency and score of every matching document in the tenant; `bounded`:
    of the CANDIDATES whose rank vector is nearest the query by the RUM index's distance
    only, with `window`, how many candidates there were (fewer than CANDIDATES: all), for
    words that must all match where RUM is there (_nearest); otherwise of the matches whose
    rank vector matches (_lead_matches).
    `as_parameters`: the tenant, `as_of` and the terms are bind parameters (bind_values()), so the
    statement can be built once per shape() and reused (search.py)."""
    if as_parameters:
        tenant_id = bindparam("tenant_id", type_=String)
        instant = bindparam("as_of", type_=UTCDateTime())
    else:
        instant = literal(as_of, UTCDateTime())
    query_ts, groups_ts = _tsqueries(query, as_parameters)
    keyword = func.ts_rank_cd(
        literal_column(f"'{_WEIGHTS}'::float4[]"), _RANK_VECTOR, query_ts, _RANK_NORMALISATION
    )
    age_seconds = func.greatest(extract("epoch", instant - Document.updated_at), 0)
    recency_signal = 1.0 / (1.0 + age_seconds / (RECENCY_HALF_LIFE_DAYS * 86400.0))
    raw = keyword * (1.0 + RECENCY_WEIGHT * recency_signal) if recency else keyword
    score = cast(func.round(cast(raw, Numeric), SCORE_DECIMALS), Float)
    columns = (
        Document.id.label("id"),
        cast(func.round(cast(keyword, Numeric), SCORE_DECIMALS), Float).label("keyword"),
        recency_signal.label("recency"),
        score.label("score"),
    )
    if not bounded:
        stmt = (
            select(*columns)
            .join(DocumentText, DocumentText.document_id == Document.id)
            .where(DocumentText.tenant_id == tenant_id, _VECTOR.op("@@")(query_ts))
        )
        return apply_filters(stmt, tenant_id, filters)
    if not _nearest(query):
        return _lead_matches(columns, tenant_id, filters, query_ts, groups_ts)
    nearest = (
        select(DocumentText.document_id)
        .where(DocumentText.tenant_id == tenant_id, _RANK_VECTOR.op("@@")(query_ts))
        .order_by(_RANK_VECTOR.op("<=>", return_type=Float)(query_ts))
        .limit(CANDIDATES)
        .cte("candidates")
    )
    # The full vector is checked for the page's rows only (matching(), after the ranking):
    # reading it for every candidate cost more than ranking them.
    stmt = (
        select(
            *columns,
            select(func.count()).select_from(nearest).scalar_subquery().label("window"),
        )
        .join(DocumentText, DocumentText.document_id == Document.id)
        .where(DocumentText.document_id.in_(select(nearest.c.document_id)))
    )
    return apply_filters(stmt, tenant_id, filters)


def _lead_matches(columns, tenant_id, filters, query_ts, groups_ts) -> Select:
    """The bounded ranking of every query that does not take RUM's nearest candidates
    (alternatives and phrases; every query without RUM) (window NULL): every document of the
    tenant whose rank vector matches the query's groups (its exclusions aside) is ranked,
    and the whole query is checked on the full vectors in ranking order, so only the rows a
    page needs (and those it leaves out) are read twice. Where that page is full and its
    last row scores above 0 it is the exact page (page_stands): a match outside them has a
    rank vector where the groups do not match (and-ed words, alternatives and phrases only
    match more in more text), so ts_rank_cd finds no cover there and its score is 0.
    Ranking the lead's matches and not every match halved a phrase-with-exclusion query's
    ranking at 100,000 documents (bench/RESULTS.md, "Issue 16, third session")."""
    score = columns[-1]
    inner = (
        select(*columns, _VECTOR.label("vector"))
        .join(DocumentText, DocumentText.document_id == Document.id)
        .where(DocumentText.tenant_id == tenant_id, _RANK_VECTOR.op("@@")(groups_ts))
    )
    ranked = (
        apply_filters(inner, tenant_id, filters)
        .order_by(score.desc(), Document.id.asc())
        .offset(0)  # ranked first, then checked in that order (the check stays outside)
        .subquery("lead_matches")
    )
    return select(
        ranked.c.id,
        ranked.c.keyword,
        ranked.c.recency,
        ranked.c.score,
        null().label("window"),
    ).where(ranked.c.vector.op("@@")(query_ts))


def bounds(_query: SearchQuery) -> bool:
    """Whether a bounded attempt is worth it: an index on the rank vector is there. With RUM,
    words that must all match rank the nearest CANDIDATES; every other query (and every
    query without RUM) ranks the documents whose rank vector matches (_lead_matches). (RUM's
    distance orders alternatives and phrases far from our ranking: nearest candidates stood
    for 9 of 20 of them, with a first-page recall of 0.9975, bench/RESULTS.md.)"""
    return bool(_rank_indexes())


def page_stands(tenant_id: str, query: SearchQuery, rows: list, limit: int) -> bool:
    """A bounded page stands when it is full (else the walk has passed the candidates, or the
    query's matches past the lead may follow), every row matches on the full vector, and
    either the query had a full window of candidates (the approximate page, docs/search.md)
    or, with fewer, the page is provably the exact path's: every document whose rank vector
    matches was a candidate, and a match that is not one scores 0 (its rank vector misses a
    word that must match, so ts_rank_cd finds no cover), so it comes after a page whose last
    row scores above 0. Not with exclusions: a rank vector whose lead ends in a cut word equal
    to an excluded one is no candidate, yet ranks above 0."""
    if not rows or len(rows) <= limit:
        return False
    if rows[0].window is None:  # _lead_matches: every row matched, exact above 0
        return rows[-1].score > 0
    if rows[0].window < CANDIDATES and (query.excluded or rows[-1].score <= 0):
        return False
    ids = {row.id for row in rows}
    return matching(tenant_id, query, sorted(ids)) == ids


def matching(tenant_id: str, query: SearchQuery, ids: list[str]) -> set[str]:
    """Which of `ids` match `query` on the full vector (a bounded page's rows matched on the
    rank vector; its lead of the text may end in a cut word the full text does not have)."""
    stmt = select(DocumentText.document_id).where(
        DocumentText.tenant_id == tenant_id,
        DocumentText.document_id.in_(ids),
        _VECTOR.op("@@")(tsquery(query)),
    )
    return set(db.session.scalars(stmt))


def _unmarked(expression):
    """The stored text without the highlight markers (see scoring.unmarked)."""
    return func.replace(func.replace(expression, MARK_START, ""), MARK_END, "")


def highlights(
    tenant_id: str, query: SearchQuery, ids: list[str]
) -> dict[str, list[tuple[str, str]]]:
    """(field, snippet with markers) per document of the page; computed for the page only
    (the statement is built once per shape of query, like the page's: search.py)."""
    key = shape(query)
    stmt = _HIGHLIGHTS.get(key)
    if stmt is None:
        if len(_HIGHLIGHTS) >= 256:
            _HIGHLIGHTS.clear()  # queries of many shapes: never unbounded
        stmt = _HIGHLIGHTS[key] = _highlights_statement(query)
    params = {**_term_values(query), "tenant_id": tenant_id, "ids": ids}
    return {
        doc_id: [("title", title), ("text", text)]
        for doc_id, title, text in db.session.execute(stmt, params)
    }


_HIGHLIGHTS: dict[tuple, Select] = {}


def _highlights_statement(query: SearchQuery) -> Select:
    """The highlights of the documents `ids` of `tenant_id` for the terms (bind parameters).

    ts_headline parses (and stems) all the text it is given, which made it most of a page's
    time on long documents: the text snippet is taken from the lead (HEADLINE_LEAD_CHARS,
    where the ranking's own lead lies), and only a document without a match there is parsed
    again up to HEADLINE_MAX_CHARS (a CASE, so in the same statement)."""
    config = literal_column(f"'{PG_CONFIG}'::regconfig")
    query_ts = tsquery(query, as_parameters=True)
    tenant_id = bindparam("tenant_id", type_=String)

    def text_headline(chars: int):
        return func.ts_headline(
            config, _unmarked(func.left(DocumentText.text, chars)), query_ts, _HEADLINE
        )

    lead = (
        select(
            Document.id.label("id"),
            func.ts_headline(config, _unmarked(Document.title), query_ts, _TITLE_HEADLINE).label(
                "title"
            ),
            text_headline(HEADLINE_LEAD_CHARS).label("lead"),
            DocumentText.document_id.label("text_id"),
        )
        .join(DocumentText, DocumentText.document_id == Document.id)
        .where(
            Document.tenant_id == tenant_id,
            Document.id.in_(bindparam("ids", type_=String, expanding=True)),
        )
        .offset(0)  # keeps the lead's headline computed once, not inlined into the CASE
        .subquery("lead")
    )
    further = (
        select(text_headline(HEADLINE_MAX_CHARS))
        .where(DocumentText.document_id == lead.c.text_id)
        .scalar_subquery()
    )
    body = case((func.strpos(lead.c.lead, MARK_START) > 0, lead.c.lead), else_=further)
    return select(lead.c.id, lead.c.title, body)

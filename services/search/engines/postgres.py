"""The PostgreSQL search engine: a tsquery built from websearch_to_tsquery per term
(postgres_tsquery.py), matched against the GIN- (or RUM-) indexed tsvector, ts_rank_cd for
relevance, ts_headline for snippets (postgres_highlights.py; see services/search/search.py).

Before ranking every match, search.py tries the bounded rankings prepare() names, and keeps
a page page_stands() vouches for (docs/search.md, "Common words"):
- "tier:X" (migration 0027), for a query of one word: only the documents where that word
  weighs more than X in the rank vector; every other match scores at most the tier's bound;
- "lead" (migration 0026): only the documents whose rank vector (the lead of the text)
  matches (a phrase's through the pairs of adjacent words, migration 0028: postgres_pairs.py);
  every other match scores 0;
- "nearest", where an operator created the RUM index (opt-in: postgrespro/rum#183): the
  CANDIDATES nearest by RUM's own distance, for words that must all match (approximate)."""

from __future__ import annotations

from datetime import datetime

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
    not_,
    null,
    or_,
    select,
    text,
)
from sqlalchemy.dialects.postgresql import TSVECTOR
from sqlalchemy.orm import aliased

from extensions import db
from models import Document, DocumentText
from models.base import UTCDateTime
from services.documents.filters import DocumentFilters, apply_filters
from services.search import statements
from services.search.engines import postgres_pairs
from services.search.engines import postgres_tiers as tiers
from services.search.engines.postgres_highlights import highlights  # noqa: F401 (engine.highlights)
from services.search.engines.postgres_pairs import PAIRS_INDEX, pairs_expression
from services.search.engines.postgres_tiers import TIERS, WEIGHTS, tier_expression, tier_index
from services.search.engines.postgres_tsquery import (
    any_excluded_word,
    either,
    term_values,
    terms_shape,
    tsqueries,
    tsquery,
)
from services.search.query_syntax import SearchQuery
from services.search.scoring import (
    RECENCY_HALF_LIFE_DAYS,
    RECENCY_WEIGHT,
    SCORE_DECIMALS,
)

RUM_INDEX = "ix_document_texts_rank_rum"
# GIN on the rank vector (migration 0026): finds the documents whose lead matches, for the
# exact bounded path (_matches), where RUM is not used (postgrespro/rum#183).
RANK_GIN_INDEX = "ix_document_texts_rank_gin"
# The full vector's index: RUM where the extension is installed (migration 0024: it keeps word
# positions, so phrases are checked inside the index), else GIN (migration 0003).
SEARCH_RUM_INDEX = "ix_document_texts_search_rum"
SEARCH_GIN_INDEX = "ix_document_texts_search_vector"

_RANK_NORMALISATION = 32  # rank / (rank + 1): keyword scores fall in [0, 1)


# What migrations 0003, 0023, 0024 and 0027 create (migrations keep their own frozen copy), for
# the tests that drop and recreate them and for bench/search_indexes.py.
INDEX_METHODS = {
    RUM_INDEX: "rum (rank_vector rum_tsvector_ops)",
    RANK_GIN_INDEX: "gin (rank_vector)",
    SEARCH_RUM_INDEX: "rum (search_vector rum_tsvector_ops)",
    SEARCH_GIN_INDEX: "gin (search_vector)",
    PAIRS_INDEX: f"gin ({pairs_expression('rank_vector')})",
    **{tier_index(x): f"gin ({tier_expression('rank_vector', x)})" for x in TIERS},
}


def index_ddl(name: str) -> str:
    return f"CREATE INDEX IF NOT EXISTS {name} ON document_texts USING {INDEX_METHODS[name]}"


CANDIDATES = 500  # ranked per page when a query matches more (the bounded path)
_indexes: dict[str, frozenset[str]] = {}  # per database URL: which rank-vector indexes exist
_VECTOR = literal_column("document_texts.search_vector", TSVECTOR)
_RANK_VECTOR = literal_column("document_texts.rank_vector", TSVECTOR)


def shape(query: SearchQuery) -> tuple:
    """What a statement built with bind parameters depends on: how many terms each group
    has, how many are excluded (the words themselves are bind values), which of a tiered
    group's terms are words (postgres_tiers; a group without one is all phrases), whether
    its phrases are found by their pairs (_by_pairs), and whether the bounded path takes
    RUM's nearest candidates (_nearest)."""
    return (*terms_shape(query), tiers.shape(query), _by_pairs(query), _nearest(query))


def _by_pairs(query: SearchQuery) -> bool:
    """Whether the lead's matches of a phrase are found through the pairs' index: a query of
    one group with a phrase in it, where the index exists (postgres_pairs)."""
    with_phrase = len(query.groups) == 1 and bool(tiers.split(query)[1])
    return with_phrase and PAIRS_INDEX in _rank_indexes()


def _nearest(query: SearchQuery) -> bool:
    """Whether the bounded path takes the nearest candidates by RUM's distance: words that
    must all match (no alternative, no phrase), where the RUM index exists. Every other
    bounded query ranks the tiers' or the lead's matches (_matches)."""
    words_only = all(len(g) == 1 and len(g[0].words) == 1 for g in query.groups)
    return words_only and RUM_INDEX in _rank_indexes()


def _attempts(query: SearchQuery) -> tuple[str, ...]:
    """The bounded rankings worth trying, in order, before ranking every match: with RUM, its
    nearest candidates for words that must all match; otherwise each tier whose index exists
    for a query of one group with a word in it (postgres_tiers), then the lead's matches.
    Without an index on the rank vector, none: every search takes the exact path."""
    indexes = _rank_indexes()
    if _nearest(query):
        return ("nearest",)
    lead = ("lead",) if indexes & {RUM_INDEX, RANK_GIN_INDEX} else ()
    if tiers.applies(query):
        return tuple(tiers.attempt(x) for x in TIERS if tier_index(x) in indexes) + lead
    return lead


def bind_values(tenant_id: str, query: SearchQuery, as_of: datetime) -> dict[str, object]:
    """The values of a statement built with `as_parameters=True` (ranked(), tsquery())."""
    return {"tenant_id": tenant_id, "as_of": as_of, **term_values(query)}


_SETTINGS = {"enable_seqscan": "off", "random_page_cost": "1.1"}


def prepare(tenant_id: str, query: SearchQuery, rows: int) -> tuple[str, ...]:
    """Set the search transaction's planner settings, and name the bounded rankings worth
    trying for `rows` rows (search.py): a tier is tried only where it holds `rows` documents
    with the word (else its page could not be full), so a rare word goes to the lead at once.

    The settings: match through the GIN index, never a sequential scan (the planner prices
    `@@` as cheap, but on a scan it must decompress every document's full vector: seconds at
    100k documents for a common word), and price random reads as on SSD or in memory. They
    are set by a statement of their own: a statement is planned before it runs, so the tiers'
    counts, sent in one statement with them, would be planned without them, and for a common
    word PostgreSQL would scan the table for its tier above 0.3, computing dms_rank_tier on
    every row it reads (60-100 ms where the index takes 2)."""
    db.session.execute(_SETTINGS_STATEMENT)
    attempts = _attempts(query)
    above = tuple(x for x in map(tiers.tier_of, attempts) if x is not None)
    if not above:
        return attempts
    key = (above, shape(query))
    statement = statements.built(_HELD, key, lambda: tiers.counts(query, above))
    params = {"tenant_id": tenant_id, "rows": rows, **term_values(query)}
    single, first_full = db.session.execute(statement, params).one()
    if not single:
        return tuple(a for a in attempts if tiers.tier_of(a) is None)
    full = set(above[first_full:])
    return tuple(a for a in attempts if tiers.tier_of(a) in (None, *full))


_SETTINGS_STATEMENT = select(*(func.set_config(k, v, True) for k, v in _SETTINGS.items()))


_HELD: dict[tuple, Select] = {}  # per set of tiers and shape of query (statements.built)


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
            {"names": [RUM_INDEX, RANK_GIN_INDEX, PAIRS_INDEX, *map(tier_index, TIERS)]},
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
    bounded: str | None = None,
    as_parameters: bool = False,
) -> Select:
    """id, keyword, recency and score of every matching document in the tenant; `bounded`
    (one of attempts()): of the tier's or the lead's matches (_matches), or of the CANDIDATES
    whose rank vector is nearest the query by the RUM index's distance, with `window`, how
    many candidates there were (fewer than CANDIDATES: all).
    `as_parameters`: the tenant, `as_of` and the terms are bind parameters (bind_values()), so the
    statement can be built once per shape() and reused (search.py)."""
    if as_parameters:
        tenant_id = bindparam("tenant_id", type_=String)
        instant = bindparam("as_of", type_=UTCDateTime())
    else:
        instant = literal(as_of, UTCDateTime())
    query_ts, groups_ts = tsqueries(query, as_parameters)
    keyword = _keyword(query, query_ts, groups_ts, as_parameters)

    def recency_of(updated_at):
        age_seconds = func.greatest(extract("epoch", instant - updated_at), 0)
        return 1.0 / (1.0 + age_seconds / (RECENCY_HALF_LIFE_DAYS * 86400.0))

    # Each row's raw keyword and recency, computed once (_scored)
    signals = (
        Document.id.label("id"),
        keyword.label("k"),
        recency_of(Document.updated_at).label("r"),
    )
    if not bounded:
        stmt = (
            select(*signals)
            .join(DocumentText, DocumentText.document_id == Document.id)
            .where(DocumentText.tenant_id == tenant_id, _VECTOR.op("@@")(query_ts))
        )
        return _scored(apply_filters(stmt, tenant_id, filters), recency)
    if bounded == "lead":
        lead = _lead(query, groups_ts, tenant_id, as_parameters)
        return _matches(signals, recency, tenant_id, filters, query_ts, lead, literal(0.0, Float))
    above = tiers.tier_of(bounded)
    if above is not None:
        pairs = _by_pairs(query)
        where = tiers.candidates(query, above, tenant_id, _RANK_VECTOR, as_parameters, pairs)
        bound = literal(tiers.ceiling(query, above), Float)
        if recency:  # a left-out match is no newer than the tenant's newest document
            newest = aliased(Document)
            latest = select(func.max(newest.updated_at)).where(newest.tenant_id == tenant_id)
            bound = bound * (1.0 + RECENCY_WEIGHT * recency_of(latest.scalar_subquery()))
        return _matches(signals, recency, tenant_id, filters, query_ts, where, bound)
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
        select(*signals)
        .join(DocumentText, DocumentText.document_id == Document.id)
        .where(DocumentText.document_id.in_(select(nearest.c.document_id)))
    )
    window = select(func.count()).select_from(nearest).scalar_subquery().label("window")
    return _scored(apply_filters(stmt, tenant_id, filters), recency).add_columns(window)


def _scored(stmt: Select, recency: bool, *extra: str) -> Select:
    """id, keyword, recency and score (rounded to SCORE_DECIMALS) of the rows of `stmt`, which
    selects id, k (the raw keyword), r (the recency signal) and the columns named `extra`.
    PostgreSQL computes an expression at each of its uses in a select list, so the score
    would compute ts_rank_cd and the recency a second time, beside their own columns: the
    signals are read once, under a subquery it cannot flatten (OFFSET 0): about 2 ms of the
    21-22 a mid word's ranking of its 1,300 lead matches takes."""
    rows = stmt.offset(0).subquery("signals")
    raw = rows.c.k * (1.0 + RECENCY_WEIGHT * rows.c.r) if recency else rows.c.k
    return select(
        rows.c.id,
        _rounded(rows.c.k).label("keyword"),
        rows.c.r.label("recency"),
        _rounded(raw).label("score"),
        *(rows.c[name] for name in extra),
    )


def _rounded(value):
    return cast(func.round(cast(value, Numeric), SCORE_DECIMALS), Float)


def _lead(query: SearchQuery, groups_ts, tenant_id, as_parameters: bool):
    """Where the rank vector matches the groups: for one group with phrases, where it holds one
    of the group's words, or is one of its phrases' lead matches (postgres_pairs)."""
    if not _by_pairs(query):
        return _RANK_VECTOR.op("@@")(groups_ts)
    words, phrases = tiers.split(query)
    lead = postgres_pairs.matching(
        query, phrases, tenant_id, _RANK_VECTOR, as_parameters=as_parameters, indexed=True
    )
    if not words:
        return lead
    return or_(_RANK_VECTOR.op("@@")(either(query, words, as_parameters)), lead)


def _keyword(query: SearchQuery, query_ts, groups_ts, as_parameters: bool):
    """ts_rank_cd of the rank vector by the whole query: the documented keyword score. With
    exclusions, a vector holding none of the excluded words is ranked by the groups alone: the
    same number, without evaluating the negations. ts_rank_cd builds its
    covers from the positions of the query's words in the vector, here only the groups', and
    each negation holds on every span. A vector holding one (even apart, without the excluded
    phrase) is ranked by the whole query: there its positions count."""
    weights = literal_column(f"'{WEIGHTS}'::float4[]")

    def rank(tsq):
        return func.ts_rank_cd(weights, _RANK_VECTOR, tsq, _RANK_NORMALISATION)

    if not query.excluded:
        return rank(query_ts)
    holds_none = not_(_RANK_VECTOR.bool_op("@@")(any_excluded_word(query, as_parameters)))
    return case((holds_none, rank(groups_ts)), else_=rank(query_ts))  # NULL: the whole query


def _matches(signals, recency, tenant_id, filters, query_ts, where, bound) -> Select:
    """The exact bounded ranking (window NULL) of the documents `where` picks (the lead's
    matches, or a tier's): they are ranked, and the whole query is checked on the full
    vectors in ranking order, so only the rows a page needs (and those it leaves out) are
    read twice. Every match `where` leaves out scores at most `bound`, so a full page whose
    last row scores more is the exact page (page_stands):
    - the lead: a match outside has a rank vector where the groups do not match (and-ed
      words, alternatives and phrases only match more in more text), so ts_rank_cd finds no
      cover there and its score is 0;
    - a tier: each word weighs at most the tier's X in a match outside, and no phrase is in
      its lead (postgres_tiers.ceiling), times the recency of the tenant's newest document.
    Ranking the lead's matches and not every match keeps the ranking small: a common word's
    tier ranks a few hundred documents where its lead matches tens of thousands.
    `signals`: the id, raw keyword and recency of a document (ranked(), _scored)."""
    inner = (
        select(*signals, _VECTOR.label("vector"))
        .join(DocumentText, DocumentText.document_id == Document.id)
        .where(DocumentText.tenant_id == tenant_id, where)
    )
    scored = _scored(apply_filters(inner, tenant_id, filters), recency, "vector")
    ranked = (
        scored.order_by(scored.selected_columns.score.desc(), scored.selected_columns.id.asc())
        .offset(0)  # ranked first, then checked in that order (the check stays outside)
        .subquery("matches")
    )
    return select(
        ranked.c.id,
        ranked.c.keyword,
        ranked.c.recency,
        ranked.c.score,
        null().label("window"),
        bound.label("bound"),
    ).where(ranked.c.vector.op("@@")(query_ts))


def page_stands(tenant_id: str, query: SearchQuery, rows: list, limit: int) -> bool:
    """A bounded page stands when it is full (else the walk has passed the candidates, or the
    query's matches past them may follow) and
    - from the tiers or the lead (_matches: every row matched the whole query), its last row
      scores more than `bound`, the most a left-out match can, after rounding to
      SCORE_DECIMALS (at most 0.5e-6 more; strictly more, as a tie is broken by id);
    - from RUM's nearest candidates, every row matches on the full vector, and either the
      query had a full window of candidates (the approximate page, docs/search.md) or, with
      fewer, the page is provably the exact path's: every document whose rank vector matches
      was a candidate, and a match that is not one scores 0, so it comes after a page whose
      last row scores above 0. Not with exclusions: a rank vector whose lead ends in a cut
      word equal to an excluded one is no candidate, yet ranks above 0."""
    if not rows or len(rows) <= limit:
        return False
    if rows[0].window is None:
        return float(rows[-1].score) > float(rows[0].bound) + 10.0**-SCORE_DECIMALS
    if rows[0].window < CANDIDATES and (query.excluded or rows[-1].score <= 0):
        return False
    ids = {row.id for row in rows}
    return matching(tenant_id, query, sorted(ids)) == ids


def settle_ties(_tenant_id: str, _rows: list, _limit: int, _ranking) -> None:
    """Nothing to settle: ts_rank_cd has no idf to flatten scores (sqlite.settle_ties)."""


def matching(tenant_id: str, query: SearchQuery, ids: list[str]) -> set[str]:
    """Which of `ids` match `query` on the full vector (a bounded page's rows matched on the
    rank vector; its lead of the text may end in a cut word the full text does not have)."""
    stmt = select(DocumentText.document_id).where(
        DocumentText.tenant_id == tenant_id,
        DocumentText.document_id.in_(ids),
        _VECTOR.op("@@")(tsquery(query)),
    )
    return set(db.session.scalars(stmt))

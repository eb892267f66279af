"""Owns full-text search over a tenant's documents: one interface, two engines (PostgreSQL
full text, SQLite FTS5), ranking signals, keyset pages over (score, id), and highlights.

Ranking: `keyword` is the engine's relevance (ts_rank_cd with title > tags and metadata >
text, or FTS5 bm25 with the same column weights). When the recency signal is applied,
score = keyword x (1 + RECENCY_WEIGHT x recency) with recency = 1 / (1 + age / 30 days),
the age of the document's last change measured at the search's `as_of` instant. `as_of`
travels in the cursor, so every page of one walk ranks every document identically. When the
query names a knowledge-graph entity, the `entity` signal boosts the documents that mention
it (services/search/entity_signal.py)."""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Float, Integer, Select, String, and_, bindparam, or_, select

import clock
from errors import DomainError
from extensions import db
from services.documents.filters import DocumentFilters, status_only
from services.search import entity_signal, query_syntax, statements
from services.search.engines import postgres, sqlite
from services.search.scoring import MARK_END, MARK_START, SCORE_DECIMALS


@dataclass
class Hit:
    """A matching document, by id: each caller loads what it shows of it (the API the
    document's JSON in one statement, services/documents/listing.documents_json)."""

    id: str
    score: float
    signals: dict[str, float]
    highlights: list[dict[str, str]] = field(default_factory=list)


@dataclass
class SearchPage:
    hits: list[Hit]
    next_position: list[Any] | None
    signals_used: list[str]


def _engine():
    return postgres if db.session.get_bind().dialect.name == "postgresql" else sqlite


def search(
    tenant_id: str,
    q: str,
    filters: DocumentFilters,
    limit: int,
    cursor: list[Any] | None = None,
    *,
    recency: bool = True,
    as_of: datetime | None = None,
    with_highlights: bool = True,
) -> SearchPage:
    """One page of `tenant_id`'s documents matching `q` and `filters`, best first.

    `cursor` is the decoded position of the last hit of the previous page; without one, the
    walk's instant is `as_of` (now by default). `with_highlights=False` leaves the snippets
    out (hybrid search fuses many hits and highlights only the page it returns)."""
    query = query_syntax.parse(q)
    as_of, after = _read_position(cursor) if cursor is not None else (as_of or clock.now(), None)
    engine = _engine()
    # Each engine names the bounded rankings to try first (prepare) and says whether it can
    # vouch for a page (page_stands): the tiers, the lead, SQLite's listed common words and
    # its candidates prove the page exact, PostgreSQL's RUM candidates approximate it
    # (docs/search.md). An entity boost has no bound.
    attempts = engine.prepare(tenant_id, query, limit + 1)
    boost = entity_signal.for_query(tenant_id, q)
    rows = None
    ranking = _Ranking(engine, tenant_id, query, filters, as_of, recency, after, limit)
    for attempt in attempts if boost is None else ():
        rows = ranking.rows(bounded=attempt)
        if engine.page_stands(tenant_id, query, rows, limit):
            break
        rows = engine.settle_ties(tenant_id, rows, limit, ranking)
        if rows is not None:  # ties alone left the page in doubt, and they are settled
            break  # else the engine cannot vouch for this page: the next attempt, or exact
    if rows is None:
        rows = ranking.rows(boost=boost)
    more = len(rows) > limit
    rows = rows[:limit]

    ids = [r.id for r in rows]
    snippets = engine.highlights(tenant_id, query, ids) if ids and with_highlights else {}
    hits = []
    for row in rows:
        signals = {"keyword": float(row.keyword)}
        if recency:
            signals["recency"] = round(float(row.recency), SCORE_DECIMALS)
        if boost is not None:
            signals["entity"] = float(row.entity)
        hits.append(
            Hit(
                id=row.id,
                score=float(row.score),
                signals=signals,
                highlights=[
                    {"field": name, "snippet": marked(snippet)}
                    for name, snippet in snippets.get(row.id, [])
                    if MARK_START in snippet
                ],
            )
        )
    next_position = None
    if more:
        last = rows[-1]
        next_position = [float(last.score), last.id, as_of.isoformat()]
    used = ["keyword", "recency"] if recency else ["keyword"]
    if any(hit.signals.get("entity") for hit in hits):
        used.append("entity")
    return SearchPage(hits, next_position, used)


@dataclass
class _Ranking:
    """One search's ranking, read a page at a time by either path."""

    engine: Any
    tenant_id: str
    query: query_syntax.SearchQuery
    filters: DocumentFilters
    as_of: datetime
    recency: bool
    after: tuple[float, str] | None
    limit: int

    def rows(self, *, bounded: str | None = None, boost=None, pool: str | None = None) -> list:
        """limit + 1 rows after the cursor. With no filter but status and no entity boost,
        the page's statement is built once per shape with the tenant, the query, the instant
        and the position as bind parameters: building and compiling it each time cost more
        Python than the rest of a search (as listing.py does for the plain list). `pool`: the
        value of the bounded ranking's `pool` parameter, if it has one (SQLite's "tied")."""
        engine, status = self.engine, status_only(self.filters)
        values = {} if pool is None else {"pool": pool}
        if boost is not None or status is None:
            ranked = engine.ranked(
                self.tenant_id, self.query, self.filters, self.as_of, self.recency, bounded=bounded
            )
            return _page(ranked, boost, self.after, self.limit, values)
        key = (engine.__name__, engine.shape(self.query), status, self.recency, bounded)
        key += (self.after is not None, engine.CANDIDATES)
        stmt = statements.built(_STATEMENTS, key, lambda: self._statement(status, bounded))
        params = engine.bind_values(self.tenant_id, self.query, self.as_of)
        params["rows"] = self.limit + 1
        params.update(values)
        if self.after is not None:
            params["after_score"], params["after_id"] = self.after
        return list(db.session.execute(stmt, params).all())

    def _statement(self, status: tuple[str, ...], bounded: str | None) -> Select:
        """The page's statement for this shape, every value a bind parameter."""
        filters = DocumentFilters(status=list(status))
        ranked = self.engine.ranked(
            "", self.query, filters, self.as_of, self.recency, bounded=bounded,
            as_parameters=True,
        )  # fmt: skip
        after = None
        if self.after is not None:
            after = (bindparam("after_score", type_=Float), bindparam("after_id", type_=String))
        return _page_statement(ranked, None, after, bindparam("rows", type_=Integer))


_STATEMENTS: dict[tuple, Select] = {}  # statements.built()


def _page(
    ranked_stmt: Select, boost, after: tuple[float, str] | None, limit: int, values=None
) -> list:
    """limit + 1 rows of `ranked_stmt` (with the entity boost, if any) in ranking order,
    after the keyset position; `values` of its parameters, if any."""
    stmt = _page_statement(ranked_stmt, boost, after, limit + 1)
    return list(db.session.execute(stmt, values or {}).all())


def _page_statement(ranked_stmt: Select, boost, after, rows) -> Select:
    """`rows` rows of `ranked_stmt` in ranking order after `after` (values or parameters)."""
    ranked = ranked_stmt.subquery("ranked")
    if boost is not None:
        ranked = boost.apply(ranked)
    stmt: Select = select(ranked)
    if after is not None:
        score, ident = after
        stmt = stmt.where(
            or_(ranked.c.score < score, and_(ranked.c.score == score, ranked.c.id > ident))
        )
    return stmt.order_by(ranked.c.score.desc(), ranked.c.id.asc()).limit(rows)


def path() -> str:
    """Which search path this database offers: "rum" (PostgreSQL with the RUM index: common
    words rank a bounded set of candidates), "gin" (PostgreSQL without it: a one-word query's
    tiers, then the lead's matches, each kept only when provably exact), or "fts5" (SQLite: a
    common word's listed matches, or a bounded set of candidates, kept only when provably
    exact).
    /internal/health reports it."""
    return _engine().path()


def forget_path() -> None:
    """Look the path up again on the next search (after the index was created or dropped)."""
    postgres.forget_path()


def highlights(tenant_id: str, q: str, ids: list[str]) -> dict[str, list[dict[str, str]]]:
    """The highlights of these documents for `q`, as search hits carry them."""
    snippets = _engine().highlights(tenant_id, query_syntax.parse(q), ids) if ids else {}
    return {
        ident: [
            {"field": name, "snippet": marked(snippet)}
            for name, snippet in found
            if MARK_START in snippet
        ]
        for ident, found in snippets.items()
    }


def read_position(position: list[Any]) -> tuple[datetime, tuple[float, str]]:
    """A keyword cursor's (as_of, (score, id)); INVALID_CURSOR when it is not one."""
    return _read_position(position)


def _read_position(position: list[Any]) -> tuple[datetime, tuple[float, str]]:
    invalid = DomainError(400, "INVALID_CURSOR", "This cursor is not valid.", "cursor")
    if len(position) != 3:
        raise invalid
    score, ident, as_of = position
    if not isinstance(score, int | float) or isinstance(score, bool):
        raise invalid
    if not isinstance(ident, str) or not isinstance(as_of, str):
        raise invalid
    try:
        when = datetime.fromisoformat(as_of)
    except ValueError:
        raise invalid from None
    if when.tzinfo is None:
        raise invalid
    return when, (float(score), ident)


def marked(snippet: str) -> str:
    """HTML-escape an engine snippet and turn its markers into <mark> elements, so the only
    markup a client ever receives is ours."""
    text = html.escape(snippet, quote=False)
    return text.replace(MARK_START, "<mark>").replace(MARK_END, "</mark>")

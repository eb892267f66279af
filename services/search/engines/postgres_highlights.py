"""PostgreSQL snippets: ts_headline for the title and the text of the page's documents only
(search.py asks after the page is chosen)."""

from __future__ import annotations

from sqlalchemy import Select, String, bindparam, case, func, literal_column, select

from extensions import db
from models import Document, DocumentText
from services.search.engines.postgres_tsquery import term_values, terms_shape, tsquery
from services.search.indexing import PG_CONFIG
from services.search.query_syntax import SearchQuery
from services.search.scoring import HEADLINE_LEAD_CHARS, HEADLINE_MAX_CHARS, MARK_END, MARK_START

_HEADLINE = (
    f'StartSel="{MARK_START}", StopSel="{MARK_END}", MaxWords=30, MinWords=12, '
    'MaxFragments=2, FragmentDelimiter=" … "'
)
_TITLE_HEADLINE = f'StartSel="{MARK_START}", StopSel="{MARK_END}", HighlightAll=true'


def _unmarked(expression):
    """The stored text without the highlight markers (see scoring.unmarked)."""
    return func.replace(func.replace(expression, MARK_START, ""), MARK_END, "")


def highlights(
    tenant_id: str, query: SearchQuery, ids: list[str]
) -> dict[str, list[tuple[str, str]]]:
    """(field, snippet with markers) per document of the page; computed for the page only
    (the statement is built once per shape of query, like the page's: search.py)."""
    key = terms_shape(query)
    stmt = _HIGHLIGHTS.get(key)
    if stmt is None:
        if len(_HIGHLIGHTS) >= 256:
            _HIGHLIGHTS.clear()  # queries of many shapes: never unbounded
        stmt = _HIGHLIGHTS[key] = _highlights_statement(query)
    params = {**term_values(query), "tenant_id": tenant_id, "ids": ids}
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

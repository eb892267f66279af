"""PostgreSQL snippets: ts_headline for the title and the text of the page's documents only
(search.py asks after the page is chosen)."""

from __future__ import annotations

from sqlalchemy import Select, String, bindparam, case, func, literal_column, select, true
from sqlalchemy.dialects.postgresql import TSVECTOR
from sqlalchemy.sql.functions import Function

from extensions import db
from models import Document, DocumentText
from models.base import id_list, one_of
from services.search import statements
from services.search.engines.postgres_tsquery import term_lexemes, term_values, terms_shape, tsquery
from services.search.indexing import PG_CONFIG
from services.search.query_syntax import SearchQuery
from services.search.scoring import HEADLINE_MAX_CHARS, HEADLINE_WINDOW_CHARS, MARK_END, MARK_START

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
    (the statement is built once per shape of query, like the page's: search.py). A text
    that neither shows a query word where one is first spelt nor matches the query itself
    gets no text snippet (_highlights_statement)."""
    stmt = statements.built(_HIGHLIGHTS, terms_shape(query), lambda: _highlights_statement(query))
    params = {**term_values(query), "tenant_id": tenant_id, "ids": ids}
    return {
        doc_id: [("title", title)] + ([("text", text)] if text is not None else [])
        for doc_id, title, text in db.session.execute(stmt, params)
    }


_HIGHLIGHTS: dict[tuple, Select] = {}
_SEARCH_VECTOR = literal_column("document_texts.search_vector", TSVECTOR)
_TEXT_WEIGHT = literal_column("'{c}'::\"char\"[]")  # the text's words in the vector (indexing.py)
_MARGIN = 60  # characters of context the window keeps before the first spelt stem


def _highlights_statement(query: SearchQuery) -> Select:
    """The highlights of the documents `ids` of `tenant_id` for the terms (bind parameters).

    ts_headline parses (and stems) all the text it is given, which would make it most of a
    page's time, so each text is parsed as little as gives the snippet:
    - a window of HEADLINE_WINDOW_CHARS from just before the first place one of the query's
      words is spelt (its stem, by a case-insensitive regular expression over the first
      HEADLINE_MAX_CHARS), which is where the text's match usually is;
    - where that window shows no match (none found, or a word whose stem is not spelt as
      it is written: `happi` in `happy`), the first HEADLINE_MAX_CHARS, but only for a text
      whose own words (weight C of the full vector) match the query; any other text gets
      no snippet (most such hits matched on their title, tags or metadata)."""
    config = literal_column(f"'{PG_CONFIG}'::regconfig")
    query_ts = tsquery(query, as_parameters=True)
    tenant_id = bindparam("tenant_id", type_=String)
    text = DocumentText.text
    ids = id_list("ids", "postgresql")

    def text_headline(passage):
        return func.ts_headline(config, _unmarked(passage), query_ts, _HEADLINE)

    spelt = (
        select(func.regexp_instr(_head(text), _stems(query), 1, 1, 0, "i").label("at"))
        .correlate(DocumentText)
        .offset(0)  # computed once per text, not at each of its uses
        .lateral("spelt")
    )
    at = spelt.c.at
    window = case(
        (  # from a word's start: the window's partial first word is dropped
            at > _MARGIN,
            func.regexp_replace(
                func.substr(text, at - _MARGIN, HEADLINE_WINDOW_CHARS), r"^\S*", ""
            ),
        ),
        else_=func.left(text, HEADLINE_WINDOW_CHARS),
    )
    first = (
        select(
            Document.id.label("id"),
            func.ts_headline(config, _unmarked(Document.title), query_ts, _TITLE_HEADLINE).label(
                "title"
            ),
            case((at > 0, text_headline(window))).label("window"),
            DocumentText.document_id.label("text_id"),
        )
        .join(DocumentText, DocumentText.document_id == Document.id)
        .join(spelt, true())
        .where(
            Document.tenant_id == tenant_id,
            one_of(Document.id, ids),
            one_of(DocumentText.document_id, ids),  # the window of the page's texts only
        )
        .offset(0)  # keeps the window's headline computed once, not inlined into the CASE
        .subquery("first")
    )
    text_matches = func.ts_filter(_SEARCH_VECTOR, _TEXT_WEIGHT).op("@@")(query_ts)
    further = (
        select(case((text_matches, text_headline(_head(text)))))
        .where(DocumentText.document_id == first.c.text_id)
        .scalar_subquery()
    )
    body = case((func.strpos(first.c.window, MARK_START) > 0, first.c.window), else_=further)
    return select(first.c.id, first.c.title, body)


def _head(text):
    """The first HEADLINE_MAX_CHARS characters of `text`. left() counts the characters of a
    UTF-8 text to cut it, which for a text shorter than that (most) only copies it: 24 µs a
    document at 2.7 kB, as much again as the regular expression's cost.
    A text of at most that many bytes has at most that many characters, and its length in
    bytes is known without reading it."""
    return case(
        (func.octet_length(text) <= HEADLINE_MAX_CHARS, text),
        else_=func.left(text, HEADLINE_MAX_CHARS),
    )


def _stems(query: SearchQuery) -> Function:
    """A regular expression matching any stem of the query's words (not the excluded ones),
    computed once per statement: the lexemes PostgreSQL makes of the terms (term_lexemes),
    joined by |. Terms are letters and digits (query_syntax), so no stem holds a character a
    pattern gives meaning to; each is escaped all the same, should the syntax ever let one
    through."""
    positive = sum(len(group) for group in query.groups)
    lexeme = term_lexemes(query, range(positive), as_parameters=True)
    escaped = func.regexp_replace(lexeme.c.lexeme, r"([.^$*+?()\[\]{}|\\])", r"\\\1", "g")
    return select(func.string_agg(escaped, "|")).select_from(lexeme).scalar_subquery()

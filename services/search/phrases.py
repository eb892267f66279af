"""Which documents of a tenant the text index says may contain any of some phrases (the
knowledge graph's candidates when an entity's names change). A superset on purpose: the
engines stem words, so the caller checks each candidate's text exactly. Texts are indexed
up to indexing.INDEX_MAX_CHARS characters, so a phrase found only beyond that is missed."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import literal, literal_column, select
from sqlalchemy.dialects.postgresql import TSVECTOR

from extensions import db
from models import DocumentText
from services.search.engines import sqlite
from services.search.engines.postgres_tsquery import tsquery
from services.search.indexing import dialect
from services.search.query_syntax import _WORD, SearchQuery, Term

_CHUNK = 20  # phrases per query


def documents_with_any(tenant_id: str, phrases: Iterable[str]) -> set[str]:
    terms = []
    for phrase in phrases:
        words = tuple(w.lower() for w in _WORD.findall(phrase))
        if words:
            terms.append(Term(words))
    found: set[str] = set()
    for start in range(0, len(terms), _CHUNK):
        query = SearchQuery(groups=[terms[start : start + _CHUNK]])
        found.update(_matching(tenant_id, query))
    return found


def _matching(tenant_id: str, query: SearchQuery) -> list[str]:
    if dialect() == "postgresql":
        vector = literal_column("document_texts.search_vector", TSVECTOR)
        stmt = select(DocumentText.document_id).where(
            DocumentText.tenant_id == tenant_id, vector.op("@@")(tsquery(query))
        )
    else:
        fts = literal_column("document_search")
        ids = sqlite.IDS
        stmt = (
            select(ids.c.document_id)
            .select_from(sqlite.FTS)
            .join(ids, ids.c.fts_rowid == sqlite.FTS.c.rowid)
            .where(fts.op("MATCH")(literal(query.fts5())), ids.c.tenant_id == tenant_id)
        )
    return list(db.session.scalars(stmt))

"""The PostgreSQL search engine: websearch_to_tsquery over the GIN-indexed tsvector,
ts_rank_cd for relevance, ts_headline for snippets (see services/search.py)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    Float,
    Numeric,
    Select,
    cast,
    extract,
    func,
    literal,
    literal_column,
    select,
    text,
)
from sqlalchemy.dialects.postgresql import TSVECTOR

from extensions import db
from models import Document, DocumentText
from models.base import UTCDateTime
from services.documents.filters import DocumentFilters, apply_filters
from services.search.indexing import PG_CONFIG
from services.search.query_syntax import SearchQuery
from services.search.scoring import (
    HEADLINE_MAX_CHARS,
    MARK_END,
    MARK_START,
    RECENCY_HALF_LIFE_DAYS,
    RECENCY_WEIGHT,
    SCORE_DECIMALS,
)

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


def _tsquery(query: SearchQuery):
    return func.websearch_to_tsquery(
        literal_column(f"'{PG_CONFIG}'::regconfig"), literal(query.websearch())
    )


def prepare() -> None:
    """Match through the GIN index, never a sequential scan: the planner prices `@@` as
    cheap, but on a scan it must decompress every document's full vector (seconds at 100k
    documents for a common word), while the index answers without touching them."""
    db.session.execute(text("SET LOCAL enable_seqscan = off"))


def ranked(
    tenant_id: str, query: SearchQuery, filters: DocumentFilters, as_of: datetime, recency: bool
) -> Select:
    """id, keyword, recency and score of every matching document in the tenant."""
    tsquery = _tsquery(query)
    keyword = func.ts_rank_cd(
        literal_column(f"'{_WEIGHTS}'::float4[]"), _RANK_VECTOR, tsquery, _RANK_NORMALISATION
    )
    age_seconds = func.greatest(
        extract("epoch", literal(as_of, UTCDateTime()) - Document.updated_at), 0
    )
    recency_signal = 1.0 / (1.0 + age_seconds / (RECENCY_HALF_LIFE_DAYS * 86400.0))
    raw = keyword * (1.0 + RECENCY_WEIGHT * recency_signal) if recency else keyword
    score = cast(func.round(cast(raw, Numeric), SCORE_DECIMALS), Float)
    stmt = (
        select(
            Document.id.label("id"),
            cast(func.round(cast(keyword, Numeric), SCORE_DECIMALS), Float).label("keyword"),
            recency_signal.label("recency"),
            score.label("score"),
        )
        .join(DocumentText, DocumentText.document_id == Document.id)
        .where(DocumentText.tenant_id == tenant_id, _VECTOR.op("@@")(tsquery))
    )
    return apply_filters(stmt, tenant_id, filters)


def _unmarked(expression):
    """The stored text without the highlight markers (see scoring.unmarked)."""
    return func.replace(func.replace(expression, MARK_START, ""), MARK_END, "")


def highlights(
    tenant_id: str, query: SearchQuery, ids: list[str]
) -> dict[str, list[tuple[str, str]]]:
    """(field, snippet with markers) per document of the page; computed for the page only."""
    config = literal_column(f"'{PG_CONFIG}'::regconfig")
    tsquery = _tsquery(query)
    stmt = (
        select(
            Document.id,
            func.ts_headline(config, _unmarked(Document.title), tsquery, _TITLE_HEADLINE),
            func.ts_headline(
                config,
                _unmarked(func.left(DocumentText.text, HEADLINE_MAX_CHARS)),
                tsquery,
                _HEADLINE,
            ),
        )
        .join(DocumentText, DocumentText.document_id == Document.id)
        .where(Document.tenant_id == tenant_id, Document.id.in_(ids))
    )
    return {
        doc_id: [("title", title), ("text", body)]
        for doc_id, title, body in db.session.execute(stmt)
    }

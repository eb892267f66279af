"""The search endpoint's query and hits as they go over the wire, both ways (camelCase)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from services.core.wire import PageQuery
from services.documents.filters import DocumentFilters
from services.documents.wire import DocumentOut
from services.search.query_syntax import MAX_QUERY_CHARS


class SearchQuery(DocumentFilters, PageQuery):
    """GET /search: `q`, the document filters of CONTRACT §4, limit and cursor."""

    q: str = Field(
        ...,
        min_length=1,
        max_length=MAX_QUERY_CHARS,
        description='Words (all must match), "exact phrases", `or` between words, -exclusions.',
    )
    sort: Literal["relevance"] = Field(
        "relevance", description="Hits are ordered by score, best first (the only order)."
    )
    recency: bool = Field(
        True, description="Boost recently changed documents (the recency signal)."
    )


class _Camel(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)


class Highlight(_Camel):
    field: Literal["title", "text"]
    snippet: str = Field(description="HTML-escaped text; matched terms wrapped in <mark>.")


class SearchHit(_Camel):
    document: DocumentOut
    score: float
    highlights: list[Highlight]
    signals: dict[str, float] = Field(description="Each ranking signal's value for this hit.")

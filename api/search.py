"""Search resource: GET /api/v1/search (CONTRACT §4), routes only; services/search ranks
(hybrid.py: keyword and semantic fused when embeddings are on)."""

from __future__ import annotations

from api.auth import require_scope
from api.blueprint import bp
from api.envelope import ok_list
from api.schemas.search import SearchHit, SearchQuery
from api.validation import query_args, responds
from services.core.cursors import binding_of, decode_cursor, encode_cursor
from services.documents.wire import documents_data
from services.search import hybrid
from tenancy import current_tenant


@bp.get("/search")
@require_scope("documents:read")
@query_args(SearchQuery)
@responds(SearchHit, many=True)
def search_documents(query: SearchQuery):
    binding = binding_of(
        current_tenant.id,
        resource="search",
        q=query.q,
        recency=query.recency,
        filters=query.binding(),
    )
    position = decode_cursor(query.cursor, binding) if query.cursor is not None else None
    page = hybrid.search(
        current_tenant.id, query.q, query, query.limit, position, recency=query.recency
    )
    listed = documents_data([hit.document for hit in page.hits])  # one workflow query
    hits = [
        {
            "document": document,
            "score": hit.score,
            "highlights": hit.highlights,
            "signals": hit.signals,
        }
        for document, hit in zip(listed, page.hits, strict=True)
    ]
    next_cursor = encode_cursor(binding, page.next_position) if page.next_position else None
    return ok_list(
        hits,
        limit=query.limit,
        next_cursor=next_cursor,
        extra_meta={"aiSignalsUsed": page.signals_used},
    )

"""Search resource: GET /api/v1/search (CONTRACT §4), routes only; services/search ranks
(hybrid.py: keyword and semantic fused when embeddings are on)."""

from __future__ import annotations

from api.auth import require_scope
from api.blueprint import bp
from api.envelope import RawJSON, ok_list
from api.validation import query_args, responds
from services.core.cursors import binding_of, decode_cursor, encode_cursor
from services.documents import listing
from services.search import hybrid
from services.search.wire import SearchHit, SearchQuery
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
    # the page's documents as the list writes them, in one statement
    documents = listing.documents_json(current_tenant.id, [hit.id for hit in page.hits])
    hits = [
        {
            "document": RawJSON(documents[hit.id]),
            "score": hit.score,
            "highlights": hit.highlights,
            "signals": hit.signals,
        }
        for hit in page.hits
        if hit.id in documents  # not purged since it was ranked
    ]
    next_cursor = encode_cursor(binding, page.next_position) if page.next_position else None
    return ok_list(
        hits,
        limit=query.limit,
        next_cursor=next_cursor,
        extra_meta={"aiSignalsUsed": page.signals_used},
    )

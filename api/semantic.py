"""GET /api/v1/documents/{id}/similar: the documents nearest in meaning (docs/semantic.md);
routes only, services/semantic ranks."""

from __future__ import annotations

from api.auth import require_scope
from api.blueprint import bp
from api.envelope import ok_list
from api.openapi_rules import operation
from api.validation import query_args, responds
from services.documents import documents
from services.documents.wire import documents_data
from services.semantic import similar
from services.semantic.wire import SimilarDocument, SimilarQuery
from tenancy import current_tenant


@bp.get("/documents/<document_id>/similar")
@require_scope("documents:read")
@query_args(SimilarQuery)
@responds(SimilarDocument, many=True)
@operation("listSimilarDocuments")
def list_similar_documents(document_id: str, query: SimilarQuery):
    """Nearest first. Empty, with `meta.aiSignalsUsed` empty, while semantic search is off or
    the document has no vectors yet."""
    document = documents.get_document(current_tenant.id, document_id)
    found, used = similar.similar_documents(document, query.limit)
    listed = documents_data([d for d, _ in found])  # one workflow query for the page
    data = [{"document": d, "similarity": s} for d, (_, s) in zip(listed, found, strict=True)]
    return ok_list(data, limit=query.limit, next_cursor=None, extra_meta={"aiSignalsUsed": used})

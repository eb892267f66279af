"""Documents resource. The foundation answers the list so the whole request path
(tenant, key, scope, envelope, pagination) is exercised; the documents work fills it in."""

from __future__ import annotations

from api import bp
from api.auth import current_tenant, require_scope
from api.envelope import ok_list
from api.pagination import PageQuery, binding_of, decode_cursor
from api.validation import query_args


@bp.get("/documents")
@require_scope("documents:read")
@query_args(PageQuery)
def list_documents(query: PageQuery):
    binding = binding_of(current_tenant.id, resource="documents")
    if query.cursor is not None:
        decode_cursor(query.cursor, binding)
    return ok_list([], limit=query.limit, next_cursor=None)

"""Saved views resource (CONTRACT §10): named filters, sort and columns of the documents list,
personal or shared with the tenant; GET /documents?savedView= applies one (api/documents.py).
Reading needs documents:read, saving, changing and deleting documents:write. Routes only:
services/views works (docs/views.md)."""

from __future__ import annotations

from flask import url_for

from api.auth import current_credential, require_scope
from api.blueprint import bp
from api.envelope import ok, ok_list
from api.idempotency import idempotent
from api.pagination import id_position
from api.validation import json_body, query_args, responds
from services.core.cursors import binding_of, encode_cursor
from services.core.transaction import transactional
from services.views import views, wire
from services.views.wire import SavedViewCreate, SavedViewListQuery, SavedViewOut, SavedViewPatch
from tenancy import current_tenant


@bp.get("/saved-views")
@require_scope("documents:read")
@query_args(SavedViewListQuery)
@responds(SavedViewOut, many=True)
def list_saved_views(query: SavedViewListQuery):
    """The caller's own views and the tenant's shared ones, oldest first."""
    actor = current_credential.actor()
    binding = binding_of(current_tenant.id, resource="saved-views", owner=actor.id)
    position = id_position(query.cursor, binding)
    rows, more = views.list_views(current_tenant.id, actor, query.limit, position)
    next_cursor = encode_cursor(binding, [rows[-1].id]) if more else None
    return ok_list(wire.views_data(rows), limit=query.limit, next_cursor=next_cursor)


@bp.post("/saved-views")
@require_scope("documents:write")
@idempotent()
@json_body(SavedViewCreate)
@responds(SavedViewOut, status=201)
def create_saved_view(body: SavedViewCreate):
    """Save a view; its `filters` are checked as the documents list checks its query (422
    naming `filters.<param>`). Accepts Idempotency-Key."""
    view = views.create_view(
        current_tenant.id,
        current_credential.actor(),
        name=body.name,
        filters=body.filters,
        sort=body.sort,
        columns=body.columns,
        shared=body.shared,
    )
    location = url_for("api.get_saved_view", view_id=view.id)
    return ok(wire.view_data(view), status=201, headers={"Location": location})


@bp.get("/saved-views/<view_id>")
@require_scope("documents:read")
@responds(SavedViewOut)
def get_saved_view(view_id: str):
    """A view the caller owns, or a shared one; another's personal view is a 404."""
    return ok(
        wire.view_data(views.get_view(current_tenant.id, view_id, current_credential.actor()))
    )


@bp.patch("/saved-views/<view_id>")
@require_scope("documents:write")
@transactional
@json_body(SavedViewPatch)
@responds(SavedViewOut)
def update_saved_view(view_id: str, body: SavedViewPatch):
    """Change a view: its owner, or an admin for a shared one. `filters` replaces."""
    actor = current_credential.actor()
    view = views.get_view(current_tenant.id, view_id, actor)
    changes = {name: getattr(body, name) for name in body.model_fields_set}
    view = views.update_view(view, changes, actor, current_credential.is_admin)
    return ok(wire.view_data(view))


@bp.delete("/saved-views/<view_id>")
@require_scope("documents:write")
@transactional
@responds(SavedViewOut)
def delete_saved_view(view_id: str):
    """Delete a view: its owner, or an admin for a shared one; answers what was deleted."""
    actor = current_credential.actor()
    view = views.get_view(current_tenant.id, view_id, actor)
    return ok(views.delete_view(view, actor, current_credential.is_admin))

"""Saving, listing, changing and deleting saved views, and what applying one means. A view is
its owner's (the person or API key that saved it) unless it is shared with the tenant; another
owner's personal view is a 404, as another tenant's id is. Its owner changes and deletes it,
and admins too once it is shared. Every change is audited and emitted (saved_view.created,
saved_view.updated, saved_view.deleted)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, get_args

from sqlalchemy import or_, select

import clock
from errors import DomainError, FieldError, not_found, validation_failed
from extensions import db
from models.base import in_tenant
from models.views import SavedView
from services.audit import audit_log
from services.core import events
from services.core.actors import Actor
from services.core.paging import keyset_page
from services.documents.filters import SortOrder
from services.views.params import check_filters
from services.views.wire import view_data

# Actor.type -> the owner's type on the wire.
_OWNER_TYPES = {"user": "user", "key": "api_key"}


def owner_of(actor: Actor) -> tuple[str, str]:
    """(owner_type, owner_id) of a view `actor` saves: a person or an API key."""
    owner_type = _OWNER_TYPES.get(actor.type)
    if owner_type is None or not actor.id:
        raise DomainError(403, "FORBIDDEN", "Views are saved by a person or an API key.")
    return owner_type, actor.id


def _owned_by(view: SavedView, actor: Actor) -> bool:
    return (view.owner_type, view.owner_id) == (_OWNER_TYPES.get(actor.type), actor.id)


def _visible(tenant_id: str, actor: Actor):
    owner_type = _OWNER_TYPES.get(actor.type, "")
    mine = (SavedView.owner_type == owner_type) & (SavedView.owner_id == (actor.id or ""))
    return in_tenant(SavedView, tenant_id), or_(SavedView.shared.is_(True), mine)


def get_view(tenant_id: str, view_id: str, actor: Actor) -> SavedView:
    """The view, when `actor` may see it (theirs or shared); else 404."""
    view = SavedView.get_for_tenant(view_id, tenant_id)
    if not (view.shared or _owned_by(view, actor)):
        raise not_found(SavedView.__not_found_label__)
    return view


def list_views(
    tenant_id: str, actor: Actor, limit: int, position: Sequence[Any] | None
) -> tuple[list[SavedView], bool]:
    """The actor's own views and the tenant's shared ones, oldest first."""
    stmt = select(SavedView).where(*_visible(tenant_id, actor))
    return keyset_page(stmt, [(SavedView.id, False)], limit, position)


def _filters(filters: dict[str, Any]) -> dict[str, Any]:
    checked, errors = check_filters(filters)
    if errors:
        raise validation_failed(errors)
    return checked


def create_view(
    tenant_id: str,
    actor: Actor,
    *,
    name: str,
    filters: dict[str, Any],
    sort: str,
    columns: list[str],
    shared: bool,
) -> SavedView:
    owner_type, owner_id = owner_of(actor)
    now = clock.now()
    view = SavedView(
        tenant_id=tenant_id,
        name=name,
        filters=_filters(filters),
        sort=sort,
        columns=list(columns),
        shared=shared,
        owner_type=owner_type,
        owner_id=owner_id,
        created_at=now,
        updated_at=now,
    )
    db.session.add(view)
    db.session.flush()
    _record(view, actor, "saved_view.created", {"name": name, "shared": shared})
    return view


def may_change(view: SavedView, actor: Actor, is_admin: bool) -> bool:
    """Its owner; an admin too once it is shared (a personal view stays its owner's)."""
    return _owned_by(view, actor) or (view.shared and is_admin)


def _require_change(view: SavedView, actor: Actor, is_admin: bool) -> None:
    if not may_change(view, actor, is_admin):
        raise DomainError(
            403, "FORBIDDEN", "Only the view's owner, or an admin for a shared view, changes it."
        )


def update_view(
    view: SavedView, changes: dict[str, Any], actor: Actor, is_admin: bool
) -> SavedView:
    """Apply the PATCH's fields (`filters` replaces the view's filters)."""
    _require_change(view, actor, is_admin)
    if "filters" in changes:
        changes["filters"] = _filters(changes["filters"])
    changed = sorted(k for k, v in changes.items() if getattr(view, k) != v)
    for name in changed:
        setattr(view, name, list(changes[name]) if name == "columns" else changes[name])
    if changed:
        view.updated_at = clock.now()
        db.session.flush()
        _record(view, actor, "saved_view.updated", {"changes": changed})
    return view


def delete_view(view: SavedView, actor: Actor, is_admin: bool) -> dict[str, Any]:
    """Delete it; answers what was deleted."""
    _require_change(view, actor, is_admin)
    data = view_data(view)
    db.session.delete(view)
    db.session.flush()
    audit_log.record(
        view.tenant_id, actor, "saved_view.deleted", target_type="saved_view",
        target_id=view.id, details={"name": view.name, "owner": view.owner_id},
    )  # fmt: skip
    events.emit(view.tenant_id, "saved_view.deleted", {"savedView": data})
    return data


def _record(view: SavedView, actor: Actor, action: str, details: dict[str, Any]) -> None:
    audit_log.record(
        view.tenant_id, actor, action, target_type="saved_view", target_id=view.id,
        details=details,
    )  # fmt: skip
    events.emit(view.tenant_id, action, {"savedView": view_data(view)})


def list_parameters(view: SavedView) -> dict[str, Any]:
    """The documents list's query parameters the view stands for (its filters and sort),
    checked again now: a filter that no longer validates is a 400 naming the view, so the
    caller knows to change the view rather than the request."""
    checked, errors = check_filters(dict(view.filters))
    if view.sort not in get_args(SortOrder):
        message = f"sort: {view.sort!r} is no longer one of the list's orders."
        errors.append(FieldError("VALIDATION_ERROR", message, "sort"))
    if errors:
        reasons = "; ".join(e.message for e in errors)
        raise DomainError(
            400, "INVALID_PARAMETER",
            f"Saved view {view.id} has filters the list no longer accepts ({reasons}); "
            "change the view (PATCH its filters).",
            "savedView",
            [FieldError("INVALID_PARAMETER", e.message, e.field) for e in errors],
        )  # fmt: skip
    return {**checked, "sort": view.sort}

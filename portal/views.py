"""The saved views of the Documents page: its sidebar lists the person's views and the
tenant's shared ones, applies one (the page's filter form filled from the view, its columns
shown, the filters the form has no field for kept while `saved` is in the address), saves
the current filters as a view and deletes one (its owner; an admin too for a shared one).
The same service as the API: services/views (docs/views.md)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

from flask import flash, redirect, request, url_for
from flask_login import current_user
from pydantic import ValidationError
from werkzeug.datastructures import MultiDict

from errors import DomainError
from models.views import SavedView
from portal.access import (
    TENANT_ROLES,
    is_admin,
    is_htmx,
    portal_actor,
    portal_tenant,
    roles_required,
)
from portal.blueprint import bp
from portal.documents.filters import TEXT_FIELDS, BrowseForm, read_form
from services.accounts.roles import ROLE_SCOPES
from services.core.messages import pydantic_message
from services.core.transaction import transactional
from services.views import params, views
from services.views.wire import COLUMNS, DEFAULT_COLUMNS, SavedViewCreate

# The saved view's fields as the form names them, for its error messages.
_LABELS = {"name": "Name", "sort": "Sort", "columns": "Columns", "shared": "Shared"}

# At most this many views in the sidebar (the API pages through all of them).
SIDEBAR_SIZE = 100
# Who may save and delete views: the roles whose API tokens may write documents.
WRITERS = tuple(role for role, scopes in ROLE_SCOPES.items() if "documents:write" in scopes)
COLUMN_LABELS = {
    "title": "Title", "status": "Status", "tags": "Tags", "type": "Type", "size": "Size",
    "source": "Source", "created": "Created", "modified": "Changed", "filename": "File name",
}  # fmt: skip
# The view's filters the page's form has a field for: filter -> form field.
_FORM_FIELDS = {"tag": "tag", "contentType": "type", "title": "title"}
_DATE_FIELDS = {
    "createdAfter": ("created_from", False),
    "createdBefore": ("created_to", True),
    "updatedAfter": ("updated_from", False),
    "updatedBefore": ("updated_to", True),
}


def applied_view(args: MultiDict | None = None) -> SavedView | None:
    """The view named by the page's `saved` parameter, if the person may see it; a view
    deleted or never theirs is simply not applied."""
    view_id = (request.args if args is None else args).get("saved") or ""
    if not view_id:
        return None
    try:
        return views.get_view(portal_tenant().id, view_id[:40], portal_actor())
    except DomainError:
        return None


def _day(value: str, end: bool) -> str | None:
    """A view's instant as the form's UTC day (both ends inclusive there, half-open here)."""
    try:
        instant = datetime.fromisoformat(value)
    except ValueError:
        return None
    return (instant - timedelta(microseconds=1) if end else instant).date().isoformat()


def _bound(day: str, end: bool) -> str:
    """The instant the form's `day` stands for, as a view stores it."""
    start = datetime.fromisoformat(f"{day}T00:00:00+00:00")
    return (start + timedelta(days=1) if end else start).isoformat().replace("+00:00", "Z")


def form_values(view: SavedView) -> tuple[dict[str, str], dict[str, Any]]:
    """The page's form fields the view fills, and the view's filters the form has no field
    for (metadata, several statuses, exact instants), which the page applies beside them."""
    values: dict[str, str] = {"sort": view.sort}
    extra: dict[str, Any] = {}
    for name, value in view.filters.items():
        if name in _FORM_FIELDS:
            values[_FORM_FIELDS[name]] = ",".join(value) if isinstance(value, list) else value
        elif name == "status" and len(value) == 1:
            values["status"] = value[0]
        elif name == "source" and len(value) == 1:
            values["source"] = value[0]
        elif name in _DATE_FIELDS:
            field, end = _DATE_FIELDS[name]
            day = _day(value, end)
            if day is not None and _bound(day, end) == value:
                values[field] = day
            else:
                extra[name] = value
        else:
            extra[name] = value
    return values, extra


def apply_url(view: SavedView) -> str:
    values, _ = form_values(view)
    return url_for("portal.documents_page", **values, saved=view.id)


def sidebar(form: BrowseForm, view: SavedView | None) -> dict[str, Any]:
    """What templates/portal/views/_sidebar.html shows."""
    actor = portal_actor()
    rows, _ = views.list_views(portal_tenant().id, actor, SIDEBAR_SIZE, None)
    admin = is_admin()
    return {
        "mine": [v for v in rows if not v.shared],
        "shared": [v for v in rows if v.shared],
        "applied": view.id if view else None,
        "apply_url": apply_url,
        "can_save": current_user.role in WRITERS,
        "can_delete": lambda v: current_user.role in WRITERS and views.may_change(v, actor, admin),
        "query": urlencode(form.params(cursor="")),
        "columns": [(c, COLUMN_LABELS[c], c in (view.columns if view else DEFAULT_COLUMNS))
                    for c in COLUMNS],
    }  # fmt: skip


def columns_of(view: SavedView | None) -> list[str]:
    return list(view.columns) if view else list(DEFAULT_COLUMNS)


def columns_from(page: str) -> list[str]:
    """The columns of the list at `page` (a path and query): a row redrawn in place keeps them."""
    return columns_of(applied_view(MultiDict(parse_qsl(urlsplit(page).query))))


@bp.post("/documents/views")
@roles_required(*WRITERS)
@transactional
def save_view():
    """Save the filters the page shows as a view: with htmx, the filter form's fields sent
    beside the save form's (they change without the page reloading); without, the query
    string the page was loaded with."""
    if is_htmx():
        shown = MultiDict([(k, v) for k, v in request.form.items(multi=True) if k in TEXT_FIELDS])
    else:
        shown = MultiDict(parse_qsl(request.form.get("query", ""), keep_blank_values=False))
    view = applied_view(shown)
    form = read_form(_Args(shown), form_values(view)[1] if view else None)
    try:
        body = SavedViewCreate(
            name=request.form.get("name", ""),
            sort=form.filters.sort,
            columns=request.form.getlist("columns"),
            shared=request.form.get("shared") == "on",
        )
    except ValidationError as invalid:
        message = " ".join(
            f"{_LABELS.get(str(e['loc'][0]) if e['loc'] else '', 'The view')}: "
            f"{pydantic_message(e)}"
            for e in invalid.errors()
        ).rstrip(".")
        flash(f"The view was not saved: {message}.", "error")
        return _go(url_for("portal.documents_page", **form.params()))
    filters = params.normalised(form.filters)
    if form.custom_field_query:  # the custom field filter, as the API's list takes it
        filters["customFieldQuery"] = form.custom_field_query
    view = views.create_view(
        portal_tenant().id, portal_actor(), name=body.name,
        filters=filters, sort=body.sort, columns=body.columns, shared=body.shared,
    )  # fmt: skip
    flash(f"Saved the view “{view.name}”.", "success")
    return _go(apply_url(view))


def _go(url: str):
    """To `url`: a redirect, or for htmx a whole-page navigation (HX-Redirect)."""
    if is_htmx():
        return "", 204, {"HX-Redirect": url}
    return redirect(url)


@bp.post("/documents/views/<view_id>/delete")
@roles_required(*TENANT_ROLES)
@transactional
def delete_view(view_id: str):
    view = views.get_view(portal_tenant().id, view_id, portal_actor())
    views.delete_view(view, portal_actor(), is_admin())
    flash(f"Deleted the view “{view.name}”.", "success")
    return redirect(url_for("portal.documents_page"))


class _Args:
    """What read_form reads of a request: its query arguments."""

    def __init__(self, args: MultiDict) -> None:
        self.args = args

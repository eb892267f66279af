"""Documents page: browse the tenant's documents with the API's list filters and
keyset pages, search them with highlights (htmx as you type, a plain GET form without
JavaScript), a document's detail with its versions, text status and preview, and trash and
restore, and its notes (portal/notes.py); the saved views' sidebar is portal/views.py. The
same services as the API: services/documents and services/search."""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlsplit

from flask import flash, redirect, render_template, request, url_for
from flask_login import current_user
from markupsafe import Markup, escape
from sqlalchemy import false

from errors import DomainError
from extensions import db
from models.documents import Document, DocumentStatus
from portal import views as saved_views
from portal.access import TENANT_ROLES, is_htmx, portal_actor, portal_tenant, roles_required
from portal.blueprint import bp
from portal.documents.files import TEXT_PREVIEW_BYTES, preview_kind
from portal.documents.filters import (
    OPERATOR_LABELS,
    SORT_CHOICES,
    SOURCE_CHOICES,
    STATUS_CHOICES,
    TYPE_CHOICES,
    BrowseForm,
    field_choices,
    read_form,
)
from portal.notes import notes_panel
from portal.sharing import share_panel
from portal.thumbnails import grid_cards
from services.accounts.roles import ROLE_SCOPES
from services.core.cursors import binding_of, decode_cursor, encode_cursor
from services.core.transaction import transactional
from services.customfields import query as custom_field_query
from services.customfields import values
from services.customfields.currencies import ISO_4217
from services.documents import documents
from services.documents.filters import parse_position, position_of
from services.search import search
from services.workflows import definitions, queries
from services.workflows import wire as workflow_wire

PAGE_SIZE = 25
# What the Documents list's bulk bar offers (portal/bulk.py starts the job).
BULK_ACTIONS = {
    "addTags": "Add tags",
    "removeTags": "Remove tags",
    "trash": "Move to the trash",
    "restore": "Restore from the trash",
    "startWorkflow": "Start a workflow",
}
VERSIONS_PAGE_SIZE = 20
# Who may trash and restore: the roles whose API tokens may write documents (admins and
# members); auditors read. Support staff read audit logs only, never a tenant's documents.
EDITORS = tuple(role for role, scopes in ROLE_SCOPES.items() if "documents:write" in scopes)
_MARK = re.compile(r"</?mark>")
# Workflow definitions offered in the pickers (the Workflows page lists them all).
DEFINITIONS_SHOWN = 100


def can_edit_documents() -> bool:
    return current_user.is_authenticated and current_user.role in EDITORS


def definition_choices(tenant_id: str) -> list[tuple[str, str]]:
    """(id, name) of the tenant's workflow definitions, by name, for the pickers."""
    rows, _ = definitions.list_definitions(tenant_id, DEFINITIONS_SHOWN, None)
    return sorted(((d.id, d.name) for d in rows), key=lambda pair: pair[1].casefold())


def snippet_html(snippet: str) -> Markup:
    """A search highlight as markup. The search service escapes the document's text and adds
    only <mark> and </mark>; anything else that looks like a tag means that promise broke,
    and the whole snippet is shown escaped instead of trusted."""
    if "<" in _MARK.sub("", snippet):
        return escape(snippet)
    return Markup(snippet)  # noqa: S704  (checked just above: only <mark> is markup)


def workflow_panel(document: Document) -> dict | None:
    """What the detail page's Workflow panel shows (templates/portal/documents/_workflow.html):
    the document's approval workflows, newest first, the latest with its history; None when
    no workflow was ever started on it."""
    rows, more = queries.list_instances(
        document.tenant_id, queries.InstanceFilters(document_id=document.id), 10, None
    )
    if not rows:
        return None
    return {"instances": workflow_wire.instances_data(rows), "more": more}


def _page_position(cursor: str, binding: str, sort: str | None):
    """The position in a cursor of this view, or None (and a note) when it is stale."""
    try:
        raw = decode_cursor(cursor, binding)
    except DomainError:
        raw = None
    position = raw if sort is None or raw is None else parse_position(raw, sort)
    if position is None:
        flash("That page link has expired or no longer matches; showing the first page.", "info")
    return position


def _condition(form: BrowseForm):
    """The form's customFieldQuery compiled as the API's list compiles it; a refusal is the
    custom field filter's error, and the list shows nothing rather than everything."""
    if form.custom_field_query is None:
        return None
    try:
        return custom_field_query.compile_query(portal_tenant().id, form.custom_field_query)
    except DomainError as error:
        form.errors.setdefault("cf", []).append(error.message)
        return false()


def _binding(form: BrowseForm) -> dict:
    return {**form.filters.binding(), "customFieldQuery": form.custom_field_query}


def _browse(form: BrowseForm) -> dict:
    tenant_id = portal_tenant().id
    binding = binding_of(tenant_id, resource="portal-documents", filters=_binding(form))
    cursor = request.args.get("cursor")
    position = _page_position(cursor, binding, form.filters.sort) if cursor else None
    condition = _condition(form)
    rows, more = documents.list_documents(tenant_id, form.filters, PAGE_SIZE, position, condition)
    next_url = None
    if more:
        token = encode_cursor(binding, position_of(rows[-1], form.filters.sort))
        next_url = url_for("portal.documents_page", **form.params(cursor=token))
    return {"hits": [{"document": d, "highlights": []} for d in rows], "next_url": next_url}


def _search(form: BrowseForm) -> dict:
    tenant_id = portal_tenant().id
    binding = binding_of(tenant_id, resource="portal-search", q=form.q, filters=_binding(form))
    cursor = request.args.get("cursor")
    position = _page_position(cursor, binding, None) if cursor else None
    try:
        page = search.search(tenant_id, form.q, form.filters, PAGE_SIZE, position)
    except DomainError as error:
        if position is None:  # the query itself: nothing to look for, too many words
            form.errors.setdefault("q", []).append(error.message)
            return {"hits": [], "next_url": None}
        flash("That page link no longer matches; showing the first page.", "info")
        page = search.search(tenant_id, form.q, form.filters, PAGE_SIZE, None)
    next_url = None
    if page.next_position:
        token = encode_cursor(binding, page.next_position)
        next_url = url_for("portal.documents_page", **form.params(cursor=token))
    documents_of = Document.get_many_for_tenant([hit.id for hit in page.hits], tenant_id)
    condition = _condition(form)
    if condition is not None:  # the ranking knows no custom fields: narrow the page after it
        kept = documents.matching_ids(tenant_id, list(documents_of), condition)
        documents_of = {k: v for k, v in documents_of.items() if k in kept}
    hits = [
        {
            "document": documents_of[hit.id],
            "highlights": [(h["field"], snippet_html(h["snippet"])) for h in hit.highlights],
        }
        for hit in page.hits
        if hit.id in documents_of  # not purged since it was ranked
    ]
    return {"hits": hits, "next_url": next_url}


@bp.get("/documents")
@roles_required(*TENANT_ROLES)
def documents_page():
    view = saved_views.applied_view()
    form = read_form(request, saved_views.form_values(view)[1] if view else None)
    results = _search(form) if form.q else _browse(form)
    context = {
        "form": form,
        "searching": bool(form.q),
        "status_choices": STATUS_CHOICES,
        "type_choices": TYPE_CHOICES,
        "sort_choices": SORT_CHOICES,
        "source_choices": SOURCE_CHOICES,
        "field_choices": field_choices(portal_tenant().id),
        "operator_labels": OPERATOR_LABELS,
        "columns": saved_views.columns_of(view),
        "column_labels": saved_views.COLUMN_LABELS,
        "views": saved_views.sidebar(form, view),
        "can_edit": can_edit_documents(),
        "definitions": definition_choices(portal_tenant().id) if can_edit_documents() else [],
        "bulk_actions": BULK_ACTIONS,
        "back": request.full_path.rstrip("?"),
        "first_url": url_for("portal.documents_page", **form.params())
        if request.args.get("cursor")
        else None,
        "list_url": url_for("portal.documents_page", **form.params(view="", cursor="")),
        "grid_url": url_for("portal.documents_page", **form.params(view="grid", cursor="")),
        **results,
    }
    if form.grid:
        context["cards"] = grid_cards(portal_tenant().id, results["hits"])
    if is_htmx() and request.headers.get("HX-History-Restore-Request") != "true":
        # 200 even with errors: htmx does not swap a 4xx, and the results say what was wrong.
        return render_template("portal/documents/_results.html", **context)
    return render_template("portal/documents/index.html", **context), 400 if form.errors else 200


@bp.get("/documents/<document_id>")
@roles_required(*TENANT_ROLES)
def document_detail(document_id: str):
    document = documents.get_document(portal_tenant().id, document_id)
    before = request.args.get("versions_before", type=int)
    if before is not None and not 1 < before <= document.current_version + 1:
        before = None
    versions, more = documents.list_versions(document, VERSIONS_PAGE_SIZE, before)
    return render_template(
        "portal/documents/detail.html",
        document=document,
        versions=versions,
        older_versions=versions[-1].number if more else None,
        preview=preview_kind(document.content_type),
        text_preview_bytes=TEXT_PREVIEW_BYTES,
        can_edit=can_edit_documents(),
        workflow=workflow_panel(document),
        share=share_panel(document),
        panel=notes_panel(document, request.args.get("notes_before")),
        custom_fields=values.panel(document),
        currencies=sorted(ISO_4217),
        definitions=definition_choices(document.tenant_id) if can_edit_documents() else [],
    )


def _back(document: Document):
    """Where a plain form returns: the list it came from, or the document."""
    back = request.form.get("back", "")
    if back.startswith("/documents") and not back.startswith("//"):
        return redirect(back)
    return redirect(url_for("portal.document_detail", document_id=document.id))


def _leaves_list(document: Document) -> bool:
    """Whether the list the row is on (the form's `back`) no longer shows the document: a
    document restored from the Trash tab leaves it at once."""
    status = dict(parse_qsl(urlsplit(request.form.get("back", "")).query)).get("status", "")
    return status == DocumentStatus.DELETED.value and document.status != status


def _row(document: Document):
    if _leaves_list(document):
        return ""  # htmx swaps the row for nothing: it is gone from this tab
    return render_template(
        "portal/documents/_row.html",
        hit={"document": document, "highlights": []},
        columns=saved_views.columns_from(request.form.get("back", "")),
        can_edit=True,
        back=request.form.get("back", ""),
    )


@bp.post("/documents/<document_id>/trash")
@roles_required(*EDITORS)
@transactional
def trash_document(document_id: str):
    document = documents.get_document(portal_tenant().id, document_id)
    documents.trash_document(document, portal_actor())
    if is_htmx():
        return _row(document)
    flash(f"Moved “{document.title}” to the trash. Restore it until it is purged.", "success")
    return _back(document)


@bp.post("/documents/<document_id>/restore")
@roles_required(*EDITORS)
@transactional
def restore_document(document_id: str):
    document = documents.get_document(portal_tenant().id, document_id)
    if document.status != DocumentStatus.DELETED.value:  # only the trash is restored here
        return _row(document) if is_htmx() else _back(document)
    try:
        documents.update_document(document, {"status": DocumentStatus.ACTIVE}, portal_actor())
    except DomainError as error:
        db.session.rollback()
        flash(error.message, "error")
        return _back(document)
    if is_htmx():
        return _row(document)
    flash(f"Restored “{document.title}”.", "success")
    return _back(document)

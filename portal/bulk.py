"""Bulk edits in the portal: the Documents list's selection (checkboxes, or every document on
the page) tagged, untagged, trashed or put through a workflow as one job, and a job's page
(`/jobs/<id>`) with its progress bar and per-document errors. While the job runs, htmx asks
for the progress fragment every second and stops once it is finished; without JavaScript the
page says to reload. The same service as the API's `POST /documents/bulk`: services/bulk."""

from __future__ import annotations

from typing import Any

from flask import flash, redirect, render_template, request, url_for
from pydantic import ValidationError

from errors import DomainError
from extensions import db
from portal.access import TENANT_ROLES, is_htmx, portal_actor, portal_tenant, roles_required
from portal.blueprint import bp
from portal.documents.pages import EDITORS
from services.bulk import bulk, wire
from services.bulk.wire import MAX_DOCUMENT_IDS, BulkEdit
from services.core.transaction import transactional


def _operation(action: str, tags_text: str, definition_id: str) -> tuple[dict | None, str | None]:
    """The bulk operation the form asks for, or what is missing, in words."""
    if action in ("addTags", "removeTags"):
        tags = list(dict.fromkeys(t.strip() for t in tags_text.split(",") if t.strip()))
        if not tags:
            return None, "Give the tags to add or remove, separated by commas."
        return {"op": action, "tags": tags}, None
    if action in ("trash", "restore"):
        return {"op": action}, None
    if action == "startWorkflow":
        if not definition_id:
            return None, "Choose the workflow to start."
        return {"op": action, "definitionId": definition_id}, None
    return None, "Choose what to do with the selected documents."


def _refused(message: str, back: str):
    if is_htmx():
        return render_template("portal/documents/_bulk_refused.html", message=message), 200
    flash(message, "error")
    return redirect(back)


def _words(error: DomainError | ValidationError) -> str:
    if isinstance(error, ValidationError):
        return "Tags may have 1 to 100 characters, at most 50 of them."
    if any((e.field or "").endswith("definitionId") for e in error.errors):
        return "That workflow no longer exists; choose another."
    return " ".join(e.message for e in error.errors) or error.message


@bp.post("/documents/bulk")
@roles_required(*EDITORS)
@transactional
def bulk_edit_page():
    """Start a bulk job over the checked documents (`ids`; with `all_on_page`, every row's
    `page_ids` too). With htmx the answer is the
    job's progress, polled in place; a plain form goes to the job's page."""
    back = request.form.get("back", "")
    if not (back.startswith("/documents") and not back.startswith("//")):
        back = url_for("portal.documents_page")
    chosen = request.form.getlist("ids")
    if request.form.get("all_on_page"):  # "select all on this page" without the script
        chosen += request.form.getlist("page_ids")
    ids = list(dict.fromkeys(i[:40] for i in chosen if i))
    if not ids:
        return _refused("Select one or more documents first.", back)
    if len(ids) > MAX_DOCUMENT_IDS:
        return _refused(f"Select at most {MAX_DOCUMENT_IDS:,} documents.", back)
    operation, problem = _operation(
        request.form.get("action", ""),
        request.form.get("tags", "")[:10_000],
        request.form.get("definition_id", "")[:40],
    )
    if operation is None:
        return _refused(problem or "", back)
    body: dict[str, Any] = {"documentIds": ids, "operations": [operation]}
    try:
        job = bulk.request_edit(portal_tenant().id, BulkEdit.model_validate(body), portal_actor())
    except (DomainError, ValidationError) as error:
        db.session.rollback()
        if isinstance(error, DomainError) and error.status != 422:
            raise
        return _refused(_words(error), back)
    if is_htmx():
        return render_template("portal/bulk/_progress.html", job=wire.job_data(job))
    return redirect(url_for("portal.job_page", job_id=job.id))


@bp.get("/jobs/<job_id>")
@roles_required(*TENANT_ROLES)
def job_page(job_id: str):
    job = wire.job_data(bulk.get_job(portal_tenant().id, job_id))
    if is_htmx():
        return render_template("portal/bulk/_progress.html", job=job)
    return render_template("portal/bulk/job.html", job=job)

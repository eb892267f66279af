"""Forms pages for admins (issue 13): the forms list, create and edit with a schema textarea
whose errors show beside it and a live preview (htmx; the public page's own renderer),
publish and archive, and each form's submissions with a CSV download. Every form works as a
plain POST; htmx only refreshes the preview as the schema is typed."""

from __future__ import annotations

import json

from flask import Response, flash, redirect, render_template, request, stream_with_context, url_for

from errors import DomainError, FieldError, validation_failed
from extensions import db
from models import Form
from portal.access import ADMIN, is_htmx, portal_actor, portal_tenant, roles_required
from portal.blueprint import bp
from portal.keys import field_errors
from services.core.transaction import transactional
from services.forms import export, forms, html_form, schemas, submissions, wire
from services.forms.submissions import SubmissionFilters

PAGE_SIZE = 25
STARTER_SCHEMA = {
    "type": "object",
    "required": ["name"],
    "properties": {
        "name": {"type": "string", "title": "Your name", "maxLength": 200},
        "email": {"type": "string", "title": "Email", "format": "email"},
        "message": {"type": "string", "title": "Message", "maxLength": 2000},
    },
}


def _load(form_id: str) -> Form:
    return forms.get_form(portal_tenant().id, form_id)


def _parse_schema(text: str) -> tuple[dict | None, list[FieldError]]:
    try:
        value = json.loads(text)
    except ValueError as exc:
        return None, [FieldError("VALIDATION_ERROR", f"schema: not valid JSON ({exc}).", "schema")]
    try:
        return schemas.check_schema(value), []
    except DomainError as error:
        return None, error.errors


def _form_fields() -> dict:
    return {
        "name": request.form.get("name", "").strip()[:200],
        "description": request.form.get("description", "").strip()[:2000] or None,
        "schema_text": request.form.get("schema", ""),
        "public": request.form.get("public") == "on",
        "workflow_definition_id": request.form.get("workflow_definition_id") or None,
    }


def _render_edit(form: Form | None, fields: dict, errors: dict, status: int = 200):
    schema, _problems = _parse_schema(fields["schema_text"])
    return render_template(
        "portal/forms/edit.html",
        form=form,
        fields=fields,
        errors=errors,
        preview=html_form.fields_of(schema) if schema else [],
        workflows=forms.workflow_choices(portal_tenant().id),
        transitions=sorted(forms.TRANSITIONS[form.status]) if form else [],
        public_url=wire.public_path(form) if form else None,
    ), status


@bp.get("/forms")
@roles_required(*ADMIN)
def forms_page():
    tenant = portal_tenant()
    before = request.args.get("before") or None
    rows, more = forms.list_forms(tenant.id, PAGE_SIZE, [before] if before else None)
    return render_template(
        "portal/forms/index.html",
        rows=[{"form": f, "count": submissions.count_submissions(f)} for f in rows],
        next_before=rows[-1].id if more and rows else None,
    )


@bp.get("/forms/new")
@roles_required(*ADMIN)
def new_form():
    fields = {
        "name": "",
        "description": "",
        "schema_text": json.dumps(STARTER_SCHEMA, indent=2),
        "public": False,
        "workflow_definition_id": None,
    }
    return _render_edit(None, fields, {})


@bp.post("/forms/new")
@roles_required(*ADMIN)
@transactional
def create_form_page():
    fields = _form_fields()
    schema, problems = _parse_schema(fields["schema_text"])
    if not fields["name"]:
        problems.append(FieldError("VALIDATION_ERROR", "Give the form a name.", "name"))
    try:
        if problems:
            raise validation_failed(problems)
        form = forms.create_form(
            portal_tenant().id,
            portal_actor(),
            name=fields["name"],
            schema=schema or {},
            description=fields["description"],
            workflow_definition_id=fields["workflow_definition_id"],
            public=fields["public"],
        )
    except DomainError as error:
        db.session.rollback()
        return _render_edit(None, fields, field_errors(error), 422)
    flash(f"Created the draft form {form.name}.", "success")
    return redirect(url_for("portal.edit_form", form_id=form.id))


@bp.get("/forms/<form_id>")
@roles_required(*ADMIN)
def edit_form(form_id: str):
    form = _load(form_id)
    fields = {
        "name": form.name,
        "description": form.description or "",
        "schema_text": json.dumps(form.schema, indent=2),
        "public": form.public,
        "workflow_definition_id": form.workflow_definition_id,
    }
    return _render_edit(form, fields, {})


@bp.post("/forms/<form_id>")
@roles_required(*ADMIN)
@transactional
def update_form_page(form_id: str):
    form = _load(form_id)
    fields = _form_fields()
    schema, problems = _parse_schema(fields["schema_text"])
    if not fields["name"]:
        problems.append(FieldError("VALIDATION_ERROR", "Give the form a name.", "name"))
    if problems:
        return _render_edit(form, fields, field_errors(validation_failed(problems)), 422)
    before = form.version
    try:
        forms.update_form(
            form,
            {
                "name": fields["name"],
                "description": fields["description"],
                "schema": schema,
                "public": fields["public"],
                "workflow_definition_id": fields["workflow_definition_id"],
            },
            portal_actor(),
        )
    except DomainError as error:
        db.session.rollback()
        return _render_edit(_load(form_id), fields, field_errors(error), 422)
    note = f" The schema changed: this is version {form.version}." if form.version != before else ""
    flash(f"Saved {form.name}.{note}", "success")
    return redirect(url_for("portal.edit_form", form_id=form.id))


@bp.post("/forms/<form_id>/status")
@roles_required(*ADMIN)
@transactional
def set_form_status(form_id: str):
    form = _load(form_id)
    status = request.form.get("status", "")
    try:
        forms.update_form(form, {"status": status}, portal_actor())
    except DomainError as error:
        db.session.rollback()
        flash(error.message, "error")
        return redirect(url_for("portal.edit_form", form_id=form_id))
    flash(f"{form.name} is now {form.status}.", "success")
    return redirect(url_for("portal.edit_form", form_id=form.id))


@bp.post("/forms/preview")
@roles_required(*ADMIN)
def preview_form():
    """The preview of the schema being typed (htmx), or its errors."""
    schema, problems = _parse_schema(request.form.get("schema", ""))
    page = render_template(
        "portal/forms/_preview.html",
        preview=html_form.fields_of(schema) if schema else [],
        problems=[p.message for p in problems],
    )
    return page if is_htmx() else redirect(url_for("portal.forms_page"))


@bp.get("/forms/<form_id>/submissions")
@roles_required(*ADMIN)
def form_submissions(form_id: str):
    form = _load(form_id)
    before = request.args.get("before") or None
    rows, more = submissions.list_submissions(
        form, SubmissionFilters(), PAGE_SIZE, [before] if before else None
    )
    return render_template(
        "portal/forms/submissions.html",
        form=form,
        columns=export.columns(form),
        rows=rows,
        next_before=rows[-1].id if more and rows else None,
    )


@bp.get("/forms/<form_id>/submissions.csv")
@roles_required(*ADMIN)
def download_form_submissions(form_id: str):
    form = _load(form_id)
    return Response(
        stream_with_context(export.csv_lines(form, SubmissionFilters())),
        mimetype="text/csv",
        headers={
            "Content-Disposition": f'attachment; filename="{form.id}-submissions.csv"',
            "Cache-Control": "no-store",
        },
    )

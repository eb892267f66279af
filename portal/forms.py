"""Forms in the portal: for admins the forms list, create and edit with a schema textarea whose
errors show beside it and a live preview (htmx; the public page's own renderer), publish and
archive, and each form's submissions with a CSV download; every form works as a plain POST.

The public page of a published, public form (`/f/<form_id>`): rendered from its schema,
branded with its tenant, usable without JavaScript, CSRF-protected, counted per client IP
(tenancy.PATH_CLASSES "public-forms"), with a honeypot, errors beside each field and a
thank-you page. The form's id decides the tenant; a host naming another tenant gets 404."""

from __future__ import annotations

import json

from flask import (
    Response,
    flash,
    g,
    redirect,
    render_template,
    request,
    stream_with_context,
    url_for,
)

import tenancy
from errors import DomainError, FieldError, not_found, validation_failed
from extensions import db
from models import Form, Tenant
from portal.access import ADMIN, is_htmx, portal_actor, portal_tenant, roles_required
from portal.blueprint import bp
from portal.layout import field_errors
from services.accounts.tenants import TenantRef
from services.core.actors import Actor
from services.core.transaction import transactional
from services.forms import export, forms, html_form, schemas, submissions, wire
from services.forms.submissions import IncomingFile, SubmissionFilters

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


NO_STORE = {"Cache-Control": "no-store"}


@bp.app_template_filter("form_value")
def form_value(value) -> str:
    return html_form.display_value(value)


def _load_public(form_id: str) -> tuple[Form, Tenant]:
    """The published public form and its tenant, as the page's tenant (404 otherwise)."""
    form = forms.get_public_form(form_id)
    host = tenancy.host_tenant()
    if host is not None and host.id != form.tenant_id:
        raise not_found("Form")
    tenant = db.session.get(Tenant, form.tenant_id)
    g.tenant = TenantRef.of(tenant)  # tenancy.current_tenant
    return form, tenant


def _page(form: Form, tenant: Tenant, values: dict, errors: dict, status: int = 200):
    return (
        render_template(
            "forms/public.html",
            form=form,
            tenant=tenant,
            fields=html_form.fields_of(form.schema),
            values=values,
            errors=errors,
            honeypot=html_form.HONEYPOT,
        ),
        status,
        NO_STORE,
    )


@bp.get("/f/<form_id>")
def public_form(form_id: str):
    form, tenant = _load_public(form_id)
    return _page(form, tenant, {}, {})


def _public_actor() -> Actor:
    return Actor(
        "public",
        None,
        "public form",
        tenancy.client_ip(),
        (request.headers.get("User-Agent") or "")[:300] or None,
    )


@bp.post("/f/<form_id>")
@transactional
def submit_public_form(form_id: str):
    form, tenant = _load_public(form_id)
    thanks = redirect(url_for("portal.public_form_thanks", form_id=form.id), 303)
    if request.form.get(html_form.HONEYPOT):
        return thanks  # a bot: it is told nothing, and nothing is kept
    data, errors = html_form.data_from_form(form.schema, request.form.to_dict(flat=False))
    files = {
        key.removeprefix(html_form.INPUT_PREFIX): IncomingFile(storage.stream, storage.filename)
        for key, storage in request.files.items()
        if key.startswith(html_form.INPUT_PREFIX) and storage.filename
    }
    if errors:
        return _page(form, tenant, data, html_form.errors_by_field(errors), 422)
    try:
        submissions.submit(form, data, files, _public_actor(), submitted_by=submissions.PUBLIC)
    except DomainError as error:
        db.session.rollback()
        if error.status not in (413, 422):
            raise
        return _page(form, tenant, data, html_form.errors_by_field(error.errors), error.status)
    return thanks


@bp.get("/f/<form_id>/thanks")
def public_form_thanks(form_id: str):
    form, tenant = _load_public(form_id)
    return render_template("forms/thanks.html", form=form, tenant=tenant), 200, NO_STORE

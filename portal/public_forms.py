"""The public page of a published, public form (`/f/<form_id>`): rendered from its schema,
branded with its tenant, usable without JavaScript, CSRF-protected, counted per client IP
(tenancy.PATH_CLASSES "public-forms"), with a honeypot, errors beside each field and a
thank-you page. The form's id decides the tenant; a host naming another tenant gets 404."""

from __future__ import annotations

from flask import g, redirect, render_template, request, url_for

import tenancy
from errors import DomainError, not_found
from extensions import db
from models import Form, Tenant
from portal.blueprint import bp
from services.accounts.tenants import TenantRef
from services.core.actors import Actor
from services.core.transaction import transactional
from services.forms import forms, html_form, submissions
from services.forms.submissions import IncomingFile

NO_STORE = {"Cache-Control": "no-store"}


@bp.app_template_filter("form_value")
def form_value(value) -> str:
    return html_form.display_value(value)


def _load(form_id: str) -> tuple[Form, Tenant]:
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
    form, tenant = _load(form_id)
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
    form, tenant = _load(form_id)
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
    form, tenant = _load(form_id)
    return render_template("forms/thanks.html", form=form, tenant=tenant), 200, NO_STORE

"""Custom fields in the portal: for admins the fields page (list, create, rename, a select's
options, delete with every value), and on a document's page the panel of its values, where an
editor sets each with a form made for the field's data type (htmx swaps the one row; without
JavaScript each form is a plain POST that comes back to the document). The same services as
the API: services/customfields, and services/documents for the document.updated it causes."""

from __future__ import annotations

from typing import Any

from flask import flash, redirect, render_template, request, url_for

from errors import DomainError, FieldError, validation_failed
from extensions import db
from models.customfields import CustomField, CustomFieldType
from models.documents import Document
from portal.access import ADMIN, is_htmx, portal_actor, portal_tenant, roles_required
from portal.blueprint import bp
from portal.documents.pages import EDITORS, can_edit_documents
from portal.layout import field_errors
from services.core.transaction import transactional
from services.customfields import fields, values
from services.customfields.currencies import ISO_4217
from services.documents import documents

TYPE_LABELS = {
    CustomFieldType.STRING: "Text",
    CustomFieldType.INTEGER: "Integer",
    CustomFieldType.NUMBER: "Number",
    CustomFieldType.MONETARY: "Monetary",
    CustomFieldType.BOOLEAN: "Yes / no",
    CustomFieldType.DATE: "Date",
    CustomFieldType.SELECT: "Select",
    CustomFieldType.DOCUMENT_LINK: "Document link",
}
CURRENCIES = sorted(ISO_4217)


# --- the fields page (admins) ----------------------------------------------------------------


def _render_fields(create: dict, errors: dict, status: int = 200):
    rows = fields.all_fields(portal_tenant().id)
    return render_template(
        "portal/customfields/index.html",
        rows=rows,
        type_labels=TYPE_LABELS,
        create=create,
        errors=errors,
    ), status


def _labels(text: str) -> list[dict[str, str]]:
    return [{"label": line.strip()} for line in text.splitlines() if line.strip()]


@bp.get("/custom-fields")
@roles_required(*ADMIN)
def custom_fields_page():
    return _render_fields({"name": "", "data_type": "string", "options": ""}, {})


@bp.post("/custom-fields")
@roles_required(*ADMIN)
@transactional
def create_custom_field_page():
    create = {
        "name": request.form.get("name", "").strip()[:128],
        "data_type": request.form.get("data_type", ""),
        "options": request.form.get("options", "")[:20_000],
    }
    try:
        if not create["name"]:
            raise validation_failed([FieldError("VALIDATION_ERROR", "Give it a name.", "name")])
        if create["data_type"] not in set(CustomFieldType):
            raise validation_failed(
                [FieldError("VALIDATION_ERROR", "Choose a data type.", "dataType")]
            )
        field = fields.create_field(
            portal_tenant().id,
            portal_actor(),
            name=create["name"],
            data_type=create["data_type"],
            options=_labels(create["options"]),
        )
    except DomainError as error:
        db.session.rollback()
        if error.status != 422:
            raise
        return _render_fields(create, field_errors(error), 422)
    flash(f"Created the custom field {field.name}.", "success")
    return redirect(url_for("portal.custom_fields_page"))


def _render_edit(field: CustomField, errors: dict, status: int = 200):
    return render_template(
        "portal/customfields/edit.html",
        field=field,
        type_labels=TYPE_LABELS,
        errors=errors,
        has_values=fields.has_values(field),
    ), status


@bp.get("/custom-fields/<field_id>")
@roles_required(*ADMIN)
def edit_custom_field(field_id: str):
    return _render_edit(fields.get_field(portal_tenant().id, field_id), {})


@bp.post("/custom-fields/<field_id>")
@roles_required(*ADMIN)
@transactional
def update_custom_field_page(field_id: str):
    """Rename; for a select, relabel or clear (remove) its options and add new ones."""
    field = fields.get_field(portal_tenant().id, field_id)
    changes: dict[str, Any] = {"name": request.form.get("name", "").strip()[:128]}
    if field.data_type == CustomFieldType.SELECT:
        kept = [
            {"id": o["id"], "label": request.form.get(f"option.{o['id']}", "").strip()}
            for o in field.options
        ]
        changes["options"] = [o for o in kept if o["label"]] + _labels(
            request.form.get("new_options", "")[:20_000]
        )
    try:
        if not changes["name"]:
            raise validation_failed([FieldError("VALIDATION_ERROR", "Give it a name.", "name")])
        fields.update_field(field, changes, portal_actor())
    except DomainError as error:
        db.session.rollback()
        if error.status != 422:
            raise
        return _render_edit(
            fields.get_field(portal_tenant().id, field_id), field_errors(error), 422
        )
    flash(f"Saved {field.name}.", "success")
    return redirect(url_for("portal.edit_custom_field", field_id=field.id))


@bp.post("/custom-fields/<field_id>/delete")
@roles_required(*ADMIN)
@transactional
def delete_custom_field_page(field_id: str):
    field = fields.get_field(portal_tenant().id, field_id)
    name = field.name
    fields.delete_field(field, portal_actor())
    flash(f"Deleted the custom field {name} and every document's value of it.", "success")
    return redirect(url_for("portal.custom_fields_page"))


# --- a document's values ---------------------------------------------------------------------


def _submitted_value(field: CustomField) -> Any:
    """The form's value in the API's shape (None removes it); a ValueError says what is
    wrong with what was typed."""
    if request.form.get("clear"):
        return None
    kind = CustomFieldType(field.data_type)
    text = request.form.get("value", "").strip()
    if kind is CustomFieldType.MONETARY:
        amount = request.form.get("amount", "").strip()
        if not amount:
            return None
        return {"currency": request.form.get("currency", "").strip().upper(), "amount": amount}
    if kind is CustomFieldType.BOOLEAN:
        return {"true": True, "false": False}.get(text)
    if not text:
        return None
    if kind is CustomFieldType.INTEGER:
        try:
            return int(text)
        except ValueError:
            raise ValueError("a whole number is expected") from None
    if kind is CustomFieldType.NUMBER:
        try:
            return float(text)
        except ValueError:
            raise ValueError("a number is expected") from None
    if kind is CustomFieldType.DOCUMENT_LINK:
        return [part.strip() for part in text.replace(",", " ").split() if part.strip()]
    return text


def _row(document: Document, field: CustomField, errors: list[str], status: int = 200):
    row = next(r for r in values.panel(document) if r.field.id == field.id)
    return render_template(
        "portal/customfields/_value.html",
        document=document,
        row=row,
        errors=errors,
        can_edit=can_edit_documents(),
        currencies=CURRENCIES,
    ), status


@bp.post("/documents/<document_id>/custom-fields/<field_id>")
@roles_required(*EDITORS)
@transactional
def set_document_custom_field(document_id: str, field_id: str):
    tenant_id = portal_tenant().id
    document = documents.get_document(tenant_id, document_id)
    field = fields.get_field(tenant_id, field_id)
    detail = redirect(url_for("portal.document_detail", document_id=document.id, _anchor="fields"))
    actor = portal_actor()
    try:
        raw = {field.id: _submitted_value(field)}
        documents.update_document(
            document, {}, actor, lambda d: bool(values.set_values(d, raw, actor))
        )
    except (DomainError, ValueError) as error:
        db.session.rollback()
        if isinstance(error, DomainError) and error.status not in (409, 422):
            raise
        if isinstance(error, DomainError):  # "customFields.<id>: why." -> "<name>: why."
            messages = [
                f"{field.name}: {e.message.partition(': ')[2] or e.message}" for e in error.errors
            ]
        else:
            messages = [f"{field.name}: {error}."]
        if is_htmx():  # 200: htmx swaps only successful answers
            return _row(document, field, messages)
        for message in messages:
            flash(message, "error")
        return detail
    if is_htmx():
        return _row(document, field, [])
    flash(f"Saved {field.name}.", "success")
    return detail

"""Custom fields resource (CONTRACT §10): a tenant's typed fields. Routes only: the work is in
services/customfields (docs/customfields.md). Documents' values are set through the documents
resource (PATCH /documents/{id}, uploads) and filtered with its customFieldQuery."""

from __future__ import annotations

from flask import url_for

from api.auth import current_credential, require_scope
from api.blueprint import bp
from api.envelope import ok, ok_list
from api.idempotency import idempotent
from api.openapi_rules import operation
from api.validation import json_body, query_args, responds
from errors import DomainError
from services.core.cursors import binding_of, decode_cursor, encode_cursor
from services.core.transaction import transactional
from services.customfields import fields, wire
from services.customfields.wire import (
    CustomFieldCreate,
    CustomFieldListQuery,
    CustomFieldOut,
    CustomFieldPatch,
)
from tenancy import current_tenant


def _options(given) -> list[dict] | None:
    return None if given is None else [o.model_dump(exclude_none=True) for o in given]


@bp.post("/custom-fields")
@require_scope("documents:write")
@idempotent()
@json_body(CustomFieldCreate)
@responds(CustomFieldOut, status=201)
@operation("createCustomField")
def create_custom_field(body: CustomFieldCreate):
    """Create a field (its name unique in the tenant, ignoring case); a select needs its
    options. Accepts Idempotency-Key."""
    field = fields.create_field(
        current_tenant.id,
        current_credential.actor(),
        name=body.name,
        data_type=body.data_type.value,
        options=_options(body.options),
    )
    location = url_for("api.get_custom_field", field_id=field.id)
    return ok(wire.field_data(field), status=201, headers={"Location": location})


@bp.get("/custom-fields")
@require_scope("documents:read")
@query_args(CustomFieldListQuery)
@responds(CustomFieldOut, many=True)
@operation("listCustomFields")
def list_custom_fields(query: CustomFieldListQuery):
    """The tenant's fields, by name."""
    binding = binding_of(current_tenant.id, resource="custom-fields")
    position = None
    if query.cursor is not None:
        position = decode_cursor(query.cursor, binding)
        if len(position) != 2 or not all(isinstance(p, str) for p in position):
            raise DomainError(400, "INVALID_CURSOR", "This cursor is not valid.", "cursor")
    rows, more = fields.list_fields(current_tenant.id, query.limit, position)
    next_cursor = encode_cursor(binding, [rows[-1].name_key, rows[-1].id]) if more else None
    return ok_list(wire.fields_data(rows), limit=query.limit, next_cursor=next_cursor)


@bp.get("/custom-fields/<field_id>")
@require_scope("documents:read")
@responds(CustomFieldOut)
@operation("getCustomField")
def get_custom_field(field_id: str):
    return ok(wire.field_data(fields.get_field(current_tenant.id, field_id)))


@bp.patch("/custom-fields/<field_id>")
@require_scope("documents:write")
@transactional
@json_body(CustomFieldPatch)
@responds(CustomFieldOut)
@operation("updateCustomField")
def update_custom_field(field_id: str, body: CustomFieldPatch):
    """Rename (values stay), change a select's options, or change the data type while no
    document has a value (409 CONFLICT otherwise)."""
    field = fields.get_field(current_tenant.id, field_id)
    changes = {name: getattr(body, name) for name in body.model_fields_set}
    if "options" in changes:
        changes["options"] = _options(changes["options"])
    if "data_type" in changes:
        changes["data_type"] = changes["data_type"].value
    fields.update_field(field, changes, current_credential.actor())
    return ok(wire.field_data(field))


@bp.delete("/custom-fields/<field_id>")
@require_scope("documents:write")
@transactional
@responds(CustomFieldOut)
@operation("deleteCustomField")
def delete_custom_field(field_id: str):
    """Delete the field and every document's value of it; answers the field as it was."""
    field = fields.get_field(current_tenant.id, field_id)
    data = wire.field_data(field)
    fields.delete_field(field, current_credential.actor())
    return ok(data)

"""A document's custom field values: set from `{"<fieldId>": value | null}` (on upload, by
PATCH, from the portal), each checked against its field's data type; a refusal is 422 with
one error per field, named `customFields.<fieldId>`. Null (or an empty documentLink list)
removes a value. What a document shows is services/documents/wire.py's
custom_field_values."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from errors import FieldError, validation_failed
from extensions import db
from models.customfields import CustomField, CustomFieldType, CustomFieldValue
from models.documents import Document
from services.audit import audit_log
from services.core.actors import Actor
from services.customfields import fields, types
from services.documents.wire import MAX_CUSTOM_FIELDS


def _error(field_id: str, message: str) -> FieldError:
    return FieldError("VALIDATION_ERROR", f"customFields.{field_id}: {message}.", _name(field_id))


def _name(field_id: str) -> str:
    return f"customFields.{field_id[:60]}"


def check_values(tenant_id: str, raw: dict[str, Any]) -> dict[str, types.Typed | None]:
    """`raw` checked: each field id's typed value, or None to remove it; 422 naming every
    field that is not the tenant's or whose value does not fit (a documentLink to a
    document the tenant does not have included)."""
    if len(raw) > MAX_CUSTOM_FIELDS:
        raise validation_failed(
            [
                FieldError(
                    "VALIDATION_ERROR",
                    f"customFields: at most {MAX_CUSTOM_FIELDS} fields at once.",
                    "customFields",
                )
            ]
        )
    known = CustomField.get_many_for_tenant(list(raw), tenant_id) if raw else {}
    errors: list[FieldError] = []
    checked: dict[str, types.Typed | None] = {}
    for field_id, value in raw.items():
        field = known.get(field_id)
        if field is None:
            errors.append(_error(field_id, "no such custom field"))
            continue
        if value is None or (field.data_type == CustomFieldType.DOCUMENT_LINK and value == []):
            checked[field_id] = None
            continue
        try:
            checked[field_id] = types.typed(field, value)
        except ValueError as exc:
            errors.append(_error(field_id, str(exc)))
    linked = {i for value in checked.values() if value is not None for i in value.links}
    if linked:
        found = Document.get_many_for_tenant(sorted(linked), tenant_id)
        for field_id, value in checked.items():
            missing = [i for i in (value.links if value else ()) if i not in found]
            if missing:
                errors.append(_error(field_id, f"no such document {missing[0]}"))
    if errors:
        raise validation_failed(errors)
    return checked


def set_values(document: Document, raw: dict[str, Any], actor: Actor) -> list[str]:
    """Set (or with None remove) the document's values of the fields in `raw`; the ids of
    the fields whose value changed, audited as one entry."""
    checked = check_values(document.tenant_id, raw)
    if not checked:
        return []
    current = {
        row.field_id: row
        for row in db.session.scalars(
            select(CustomFieldValue).where(
                CustomFieldValue.tenant_id == document.tenant_id,
                CustomFieldValue.document_id == document.id,
                CustomFieldValue.field_id.in_(sorted(checked)),
            )
        )
    }
    changed = []
    for field_id, value in checked.items():
        row = current.get(field_id)
        if value is None:
            if row is not None:
                db.session.delete(row)
                changed.append(field_id)
            continue
        if row is not None and row.value_json == value.json:
            continue
        if row is None:
            row = CustomFieldValue(
                document_id=document.id, field_id=field_id, tenant_id=document.tenant_id
            )
            db.session.add(row)
        _write(row, value)
        changed.append(field_id)
    if changed:
        db.session.flush()
        audit_log.record(
            document.tenant_id,
            actor,
            "document.custom_fields_changed",
            target_type="document",
            target_id=document.id,
            details={"fields": sorted(changed)},
        )
    return changed


def _write(row: CustomFieldValue, value: types.Typed) -> None:
    row.value_json = value.json
    row.value_text = value.text
    row.value_int = value.int_
    row.value_num = value.num
    row.value_date = value.date_
    row.value_bool = value.bool_


@dataclass(frozen=True)
class PanelRow:
    """One field on a document's page: the field, the document's value (None: no value)."""

    field: CustomField
    value: Any

    @property
    def label(self) -> str | None:
        """A select's chosen option's label."""
        for option in self.field.options:
            if option["id"] == self.value:
                return option["label"]
        return None


def panel(document: Document) -> list[PanelRow]:
    """Every field of the tenant, by name, with the document's value of it."""
    values = {
        row.field_id: row.value
        for row in db.session.scalars(
            select(CustomFieldValue).where(
                CustomFieldValue.tenant_id == document.tenant_id,
                CustomFieldValue.document_id == document.id,
            )
        )
    }
    return [PanelRow(f, values.get(f.id)) for f in fields.all_fields(document.tenant_id)]

"""A tenant's custom fields: create, rename, change the options of a select, delete (with
every document's value of it), list; each change audited and announced (custom_field.*)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import delete, exists, func, select

from errors import FieldError, conflict, validation_failed
from extensions import db
from models.base import new_id
from models.customfields import CustomField, CustomFieldType, CustomFieldValue
from services.audit import audit_log
from services.core import events
from services.core.actors import Actor
from services.core.paging import keyset_page
from services.customfields.wire import field_data

MAX_FIELDS = 200  # per tenant
MAX_OPTIONS = 200
MAX_LABEL = 128


def get_field(tenant_id: str, field_id: str) -> CustomField:
    """The tenant's field, or 404 (another tenant's id included)."""
    return CustomField.get_for_tenant(field_id, tenant_id)


def list_fields(
    tenant_id: str, limit: int, after: Sequence[Any] | None
) -> tuple[list[CustomField], bool]:
    """By name (case-insensitively), a page at a time."""
    stmt = CustomField.query_for_tenant(tenant_id)
    return keyset_page(stmt, [(CustomField.name_key, False), (CustomField.id, False)], limit, after)


def all_fields(tenant_id: str) -> list[CustomField]:
    """Every field of the tenant, by name (the portal's panels; at most MAX_FIELDS)."""
    stmt = CustomField.query_for_tenant(tenant_id).order_by(CustomField.name_key, CustomField.id)
    return list(db.session.scalars(stmt))


def name_key(name: str) -> str:
    return name.strip().casefold()


def _error(field: str, message: str):
    return validation_failed([FieldError("VALIDATION_ERROR", f"{field}: {message}", field)])


def _check_name(tenant_id: str, name: str, own_id: str | None = None) -> None:
    taken = db.session.scalar(
        select(CustomField.id).where(
            CustomField.tenant_id == tenant_id,
            CustomField.name_key == name_key(name),
            CustomField.id != (own_id or ""),
        )
    )
    if taken is not None:
        raise _error("name", "another custom field has this name (names ignore case).")


def _options(data_type: str, given: list[dict[str, Any]] | None, current: list) -> list:
    """The options a field keeps: an option sent with its id keeps it (relabelled), one
    without gets a new id; a select needs at least one, other types have none."""
    if data_type != CustomFieldType.SELECT:
        if given:
            raise _error("options", "only a select field has options.")
        return []
    if given is None:
        given = current
    if not given:
        raise _error("options", "a select field needs at least one option.")
    if len(given) > MAX_OPTIONS:
        raise _error("options", f"at most {MAX_OPTIONS} options.")
    known = {o["id"] for o in current}
    kept, labels = [], set()
    for number, option in enumerate(given):
        label, ident = str(option.get("label") or "").strip(), option.get("id")
        if not label or len(label) > MAX_LABEL:
            raise _error(f"options.{number}.label", f"1 to {MAX_LABEL} characters.")
        if label.casefold() in labels:
            raise _error(f"options.{number}.label", "two options have this label.")
        if ident is not None and ident not in known:
            raise _error(f"options.{number}.id", "not an option of this field.")
        labels.add(label.casefold())
        kept.append({"id": ident or new_id("opt"), "label": label})
    return kept


def create_field(
    tenant_id: str,
    actor: Actor,
    *,
    name: str,
    data_type: str,
    options: list[dict[str, Any]] | None = None,
) -> CustomField:
    """A new field; 422 when the name is taken (ignoring case) or the tenant has MAX_FIELDS."""
    name = name.strip()
    _check_name(tenant_id, name)
    count = db.session.scalar(
        select(func.count()).select_from(CustomField).where(CustomField.tenant_id == tenant_id)
    )
    if count >= MAX_FIELDS:
        raise _error("name", f"a tenant has at most {MAX_FIELDS} custom fields.")
    field = CustomField(
        tenant_id=tenant_id,
        name=name,
        name_key=name_key(name),
        data_type=CustomFieldType(data_type).value,
        options=_options(data_type, options or [], []),
        created_by=actor.ref,
    )
    db.session.add(field)
    db.session.flush()
    audit_log.record(
        tenant_id,
        actor,
        "custom_field.created",
        target_type="custom_field",
        target_id=field.id,
        details={"name": name, "dataType": field.data_type},
    )
    events.emit(tenant_id, "custom_field.created", {"customField": field_data(field)})
    return field


def has_values(field: CustomField) -> bool:
    return bool(
        db.session.scalar(
            select(
                exists().where(
                    CustomFieldValue.tenant_id == field.tenant_id,
                    CustomFieldValue.field_id == field.id,
                )
            )
        )
    )


def update_field(field: CustomField, changes: dict[str, Any], actor: Actor) -> CustomField:
    """Rename (the values stay), change a select's options (values that chose a removed
    option are removed), or change the data type: 409 CONFLICT once any document has a
    value of the field, which would no longer fit."""
    diff: dict[str, Any] = {}
    data_type = changes.get("data_type") or field.data_type
    if data_type != field.data_type:
        if has_values(field):
            raise conflict(
                "Documents have values of this field: its data type cannot change. "
                "Remove the values (or delete the field) first."
            )
        diff["dataType"] = [field.data_type, data_type]
    if "options" in changes or data_type != field.data_type:
        given = changes.get("options")
        current = field.options if data_type == field.data_type else []
        options = _options(data_type, given, current)
        if options != field.options:
            removed = {o["id"] for o in field.options} - {o["id"] for o in options}
            if removed:
                db.session.execute(
                    delete(CustomFieldValue).where(
                        CustomFieldValue.tenant_id == field.tenant_id,
                        CustomFieldValue.field_id == field.id,
                        CustomFieldValue.value_text.in_(sorted(removed)),
                    )
                )
            diff["options"] = {"removed": sorted(removed)}
            field.options = options
    field.data_type = CustomFieldType(data_type).value
    name = (changes.get("name") or field.name).strip()
    if name != field.name:
        _check_name(field.tenant_id, name, field.id)
        diff["name"] = [field.name, name]
        field.name, field.name_key = name, name_key(name)
    if not diff:
        return field
    db.session.flush()
    audit_log.record(
        field.tenant_id,
        actor,
        "custom_field.updated",
        target_type="custom_field",
        target_id=field.id,
        details=diff,
    )
    events.emit(
        field.tenant_id,
        "custom_field.updated",
        {"customField": field_data(field), "changes": sorted(diff)},
    )
    return field


def delete_field(field: CustomField, actor: Actor) -> None:
    """The field and every document's value of it."""
    removed = db.session.execute(
        delete(CustomFieldValue).where(
            CustomFieldValue.tenant_id == field.tenant_id, CustomFieldValue.field_id == field.id
        )
    ).rowcount
    data = field_data(field)
    db.session.delete(field)
    db.session.flush()
    audit_log.record(
        field.tenant_id,
        actor,
        "custom_field.deleted",
        target_type="custom_field",
        target_id=field.id,
        details={"name": field.name, "valuesRemoved": removed},
    )
    events.emit(
        field.tenant_id, "custom_field.deleted", {"customField": data, "valuesRemoved": removed}
    )

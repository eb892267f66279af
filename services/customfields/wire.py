"""Custom fields as they go over the wire, both ways (CONTRACT §10; camelCase): the create and
PATCH bodies, the list's query, and the field as answers and the custom_field.* events show
it. A document's values are part of the document's own shape (services/documents/wire.py)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter, field_validator
from pydantic.alias_generators import to_camel

from models.customfields import CustomField, CustomFieldType
from services.core.wire import PageQuery, Timestamp, Wire, absent, reject_null

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=128)]
Label = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=128)]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", alias_generator=to_camel, populate_by_name=True)


class CustomFieldOptionIn(_Body):
    """A select option: with the `id` of an option the field has, that option (relabelled);
    without one, a new option."""

    id: Annotated[str, StringConstraints(max_length=40)] | None = None
    label: Label


class CustomFieldCreate(_Body):
    """POST /custom-fields."""

    name: Name = Field(description="Unique in the tenant, ignoring case.")
    data_type: CustomFieldType = Field(description="The kind of value documents hold.")
    options: list[CustomFieldOptionIn] = Field(
        default_factory=list, max_length=200, description="select only: at least one option."
    )


class CustomFieldPatch(_Body):
    """PATCH /custom-fields/{id}: only the fields sent change. A rename keeps every value; a
    select's options sent replace its options (options left out lose their values); the
    data type changes only while no document has a value (409 CONFLICT otherwise)."""

    name: Name = absent()
    data_type: CustomFieldType = absent()
    options: list[CustomFieldOptionIn] = Field(
        default=None, max_length=200, json_schema_extra=lambda s: s.pop("default", None)
    )

    @field_validator("name", "data_type", "options", mode="before")
    @classmethod
    def _not_null(cls, value: Any) -> Any:
        return reject_null(value)


class CustomFieldListQuery(PageQuery):
    """GET /custom-fields: by name."""


class CustomFieldOptionOut(BaseModel):
    id: str = Field(description="Stable: a document's select value is this id.")
    label: str


class CustomFieldOut(Wire):
    id: str
    name: str
    data_type: str = Field(
        description="string, integer, number, monetary, boolean, date, select or documentLink."
    )
    options: list[CustomFieldOptionOut] = Field(
        description="select only; empty for the other types."
    )
    created_at: Timestamp
    updated_at: Timestamp


_FIELDS = TypeAdapter(list[CustomFieldOut])


def field_data(field: CustomField) -> dict[str, Any]:
    return CustomFieldOut.model_validate(field).model_dump(mode="json", by_alias=True)


def fields_data(rows: list[CustomField]) -> list[dict[str, Any]]:
    models = _FIELDS.validate_python(rows, from_attributes=True)
    return _FIELDS.dump_python(models, mode="json", by_alias=True)

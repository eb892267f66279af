from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DocumentCustomField")


@_attrs_define
class DocumentCustomField:
    """One custom field value of a document.

    Attributes:
        field_id (str):
        name (str):
        value (Any): In the field's data type: a string, an integer, a number, {"currency", "amount"} (monetary), a
            boolean, "YYYY-MM-DD" (date), an option id (select) or a list of document ids (documentLink).
    """

    field_id: str
    name: str
    value: Any
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        field_id = self.field_id

        name = self.name

        value = self.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "fieldId": field_id,
                "name": name,
                "value": value,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        field_id = d.pop("fieldId")

        name = d.pop("name")

        value = d.pop("value")

        document_custom_field = cls(
            field_id=field_id,
            name=name,
            value=value,
        )

        document_custom_field.additional_properties = d
        return document_custom_field

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties

from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="FormPatchSchema")


@_attrs_define
class FormPatchSchema:
    """
    Attributes:
        type_ (Literal['object']):
        schema (Literal['https://json-schema.org/draft/2020-12/schema'] | Unset):
    """

    type_: Literal["object"]
    schema: Literal["https://json-schema.org/draft/2020-12/schema"] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        schema = self.schema

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
            }
        )
        if schema is not UNSET:
            field_dict["$schema"] = schema

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["object"], d.pop("type"))
        if type_ != "object":
            raise ValueError(f"type must match const 'object', got '{type_}'")

        schema = cast(
            Literal["https://json-schema.org/draft/2020-12/schema"] | Unset,
            d.pop("$schema", UNSET),
        )
        if schema != "https://json-schema.org/draft/2020-12/schema" and not isinstance(
            schema, Unset
        ):
            raise ValueError(
                f"$schema must match const 'https://json-schema.org/draft/2020-12/schema', got '{schema}'"
            )

        form_patch_schema = cls(
            type_=type_,
            schema=schema,
        )

        form_patch_schema.additional_properties = d
        return form_patch_schema

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

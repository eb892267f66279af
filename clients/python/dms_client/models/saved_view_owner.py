from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.saved_view_owner_type import SavedViewOwnerType

T = TypeVar("T", bound="SavedViewOwner")


@_attrs_define
class SavedViewOwner:
    """
    Attributes:
        id (str): usr_… or key_….
        type_ (SavedViewOwnerType): A person, or an API key.
    """

    id: str
    type_: SavedViewOwnerType
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        type_ = self.type_.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        type_ = SavedViewOwnerType(d.pop("type"))

        saved_view_owner = cls(
            id=id,
            type_=type_,
        )

        saved_view_owner.additional_properties = d
        return saved_view_owner

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

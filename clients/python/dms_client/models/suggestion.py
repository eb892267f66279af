from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Suggestion")


@_attrs_define
class Suggestion:
    """A name the text uses that is no entity of the tenant yet.

    Attributes:
        count (int): How many times the text uses it.
        name (str): As first written in the text, whitespace as one space.
        positions (list[int]): Character offsets of the first ten, in the text.
        type_ (None | str): organization, person or location when a fixed word rule says so ("… Corporation", "Dr …", "…
            Street"), else null.
    """

    count: int
    name: str
    positions: list[int]
    type_: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        count = self.count

        name = self.name

        positions = self.positions

        type_: None | str
        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "count": count,
                "name": name,
                "positions": positions,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        count = d.pop("count")

        name = d.pop("name")

        positions = cast(list[int], d.pop("positions"))

        def _parse_type_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        type_ = _parse_type_(d.pop("type"))

        suggestion = cls(
            count=count,
            name=name,
            positions=positions,
            type_=type_,
        )

        suggestion.additional_properties = d
        return suggestion

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

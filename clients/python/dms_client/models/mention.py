from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Mention")


@_attrs_define
class Mention:
    """A document that mentions an entity, with how often and where first.

    Attributes:
        count (int): How many times its names and aliases occur.
        document_id (str):
        positions (list[int]): Character offsets of the first ten, in the text.
        title (str):
    """

    count: int
    document_id: str
    positions: list[int]
    title: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        count = self.count

        document_id = self.document_id

        positions = self.positions

        title = self.title

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "count": count,
                "documentId": document_id,
                "positions": positions,
                "title": title,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        count = d.pop("count")

        document_id = d.pop("documentId")

        positions = cast(list[int], d.pop("positions"))

        title = d.pop("title")

        mention = cls(
            count=count,
            document_id=document_id,
            positions=positions,
            title=title,
        )

        mention.additional_properties = d
        return mention

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

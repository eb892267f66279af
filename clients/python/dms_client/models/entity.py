from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.entity_properties import EntityProperties


T = TypeVar("T", bound="Entity")


@_attrs_define
class Entity:
    """
    Attributes:
        aliases (list[str]): Other names it is found by in documents.
        created_at (datetime.datetime):
        id (str):
        mention_count (int): How many documents mention it.
        name (str):
        properties (EntityProperties):
        type_ (str): person, organization, project, location or a custom word.
        updated_at (datetime.datetime):
    """

    aliases: list[str]
    created_at: datetime.datetime
    id: str
    mention_count: int
    name: str
    properties: EntityProperties
    type_: str
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        aliases = self.aliases

        created_at = self.created_at.isoformat()

        id = self.id

        mention_count = self.mention_count

        name = self.name

        properties = self.properties.to_dict()

        type_ = self.type_

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "aliases": aliases,
                "createdAt": created_at,
                "id": id,
                "mentionCount": mention_count,
                "name": name,
                "properties": properties,
                "type": type_,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.entity_properties import EntityProperties

        d = dict(src_dict)
        aliases = cast(list[str], d.pop("aliases"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        id = d.pop("id")

        mention_count = d.pop("mentionCount")

        name = d.pop("name")

        properties = EntityProperties.from_dict(d.pop("properties"))

        type_ = d.pop("type")

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        entity = cls(
            aliases=aliases,
            created_at=created_at,
            id=id,
            mention_count=mention_count,
            name=name,
            properties=properties,
            type_=type_,
            updated_at=updated_at,
        )

        entity.additional_properties = d
        return entity

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

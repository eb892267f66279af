from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.entity_create_properties import EntityCreateProperties


T = TypeVar("T", bound="EntityCreate")


@_attrs_define
class EntityCreate:
    """POST /knowledge-graph/entities.

    Attributes:
        name (str):
        type_ (str): person, organization, project, location, or a custom lowercase word.
        aliases (list[str] | Unset):
        properties (EntityCreateProperties | Unset):
    """

    name: str
    type_: str
    aliases: list[str] | Unset = UNSET
    properties: EntityCreateProperties | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        type_ = self.type_

        aliases: list[str] | Unset = UNSET
        if not isinstance(self.aliases, Unset):
            aliases = self.aliases

        properties: dict[str, Any] | Unset = UNSET
        if not isinstance(self.properties, Unset):
            properties = self.properties.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "type": type_,
            }
        )
        if aliases is not UNSET:
            field_dict["aliases"] = aliases
        if properties is not UNSET:
            field_dict["properties"] = properties

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.entity_create_properties import EntityCreateProperties

        d = dict(src_dict)
        name = d.pop("name")

        type_ = d.pop("type")

        aliases = cast(list[str], d.pop("aliases", UNSET))

        _properties = d.pop("properties", UNSET)
        properties: EntityCreateProperties | Unset
        if isinstance(_properties, Unset):
            properties = UNSET
        else:
            properties = EntityCreateProperties.from_dict(_properties)

        entity_create = cls(
            name=name,
            type_=type_,
            aliases=aliases,
            properties=properties,
        )

        return entity_create

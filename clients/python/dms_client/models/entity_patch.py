from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.entity_patch_properties import EntityPatchProperties


T = TypeVar("T", bound="EntityPatch")


@_attrs_define
class EntityPatch:
    """PATCH /knowledge-graph/entities/{id}: only the fields sent change.

    Attributes:
        aliases (list[str] | Unset):
        name (str | Unset):
        properties (EntityPatchProperties | Unset):
        type_ (str | Unset):
    """

    aliases: list[str] | Unset = UNSET
    name: str | Unset = UNSET
    properties: EntityPatchProperties | Unset = UNSET
    type_: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        aliases: list[str] | Unset = UNSET
        if not isinstance(self.aliases, Unset):
            aliases = self.aliases

        name = self.name

        properties: dict[str, Any] | Unset = UNSET
        if not isinstance(self.properties, Unset):
            properties = self.properties.to_dict()

        type_ = self.type_

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if aliases is not UNSET:
            field_dict["aliases"] = aliases
        if name is not UNSET:
            field_dict["name"] = name
        if properties is not UNSET:
            field_dict["properties"] = properties
        if type_ is not UNSET:
            field_dict["type"] = type_

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.entity_patch_properties import EntityPatchProperties

        d = dict(src_dict)
        aliases = cast(list[str], d.pop("aliases", UNSET))

        name = d.pop("name", UNSET)

        _properties = d.pop("properties", UNSET)
        properties: EntityPatchProperties | Unset
        if isinstance(_properties, Unset):
            properties = UNSET
        else:
            properties = EntityPatchProperties.from_dict(_properties)

        type_ = d.pop("type", UNSET)

        entity_patch = cls(
            aliases=aliases,
            name=name,
            properties=properties,
            type_=type_,
        )

        return entity_patch

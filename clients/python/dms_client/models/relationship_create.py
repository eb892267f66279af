from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.relationship_create_properties import RelationshipCreateProperties


T = TypeVar("T", bound="RelationshipCreate")


@_attrs_define
class RelationshipCreate:
    """POST /knowledge-graph/relationships: from source to target, both of this tenant.

    Attributes:
        source_id (str):
        target_id (str):
        type_ (str): A lowercase word, e.g. works_for.
        properties (RelationshipCreateProperties | Unset):
    """

    source_id: str
    target_id: str
    type_: str
    properties: RelationshipCreateProperties | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        source_id = self.source_id

        target_id = self.target_id

        type_ = self.type_

        properties: dict[str, Any] | Unset = UNSET
        if not isinstance(self.properties, Unset):
            properties = self.properties.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "sourceId": source_id,
                "targetId": target_id,
                "type": type_,
            }
        )
        if properties is not UNSET:
            field_dict["properties"] = properties

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.relationship_create_properties import RelationshipCreateProperties

        d = dict(src_dict)
        source_id = d.pop("sourceId")

        target_id = d.pop("targetId")

        type_ = d.pop("type")

        _properties = d.pop("properties", UNSET)
        properties: RelationshipCreateProperties | Unset
        if isinstance(_properties, Unset):
            properties = UNSET
        else:
            properties = RelationshipCreateProperties.from_dict(_properties)

        relationship_create = cls(
            source_id=source_id,
            target_id=target_id,
            type_=type_,
            properties=properties,
        )

        return relationship_create

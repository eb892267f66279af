from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.relationship_properties import RelationshipProperties


T = TypeVar("T", bound="Relationship")


@_attrs_define
class Relationship:
    """
    Attributes:
        created_at (datetime.datetime):
        id (str):
        properties (RelationshipProperties):
        source_id (str):
        target_id (str):
        type_ (str): A lowercase word, e.g. works_for (directed: source to target).
        updated_at (datetime.datetime):
    """

    created_at: datetime.datetime
    id: str
    properties: RelationshipProperties
    source_id: str
    target_id: str
    type_: str
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        id = self.id

        properties = self.properties.to_dict()

        source_id = self.source_id

        target_id = self.target_id

        type_ = self.type_

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "id": id,
                "properties": properties,
                "sourceId": source_id,
                "targetId": target_id,
                "type": type_,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.relationship_properties import RelationshipProperties

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        id = d.pop("id")

        properties = RelationshipProperties.from_dict(d.pop("properties"))

        source_id = d.pop("sourceId")

        target_id = d.pop("targetId")

        type_ = d.pop("type")

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        relationship = cls(
            created_at=created_at,
            id=id,
            properties=properties,
            source_id=source_id,
            target_id=target_id,
            type_=type_,
            updated_at=updated_at,
        )

        relationship.additional_properties = d
        return relationship

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

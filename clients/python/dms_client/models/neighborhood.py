from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.neighbor import Neighbor
    from ..models.relationship import Relationship


T = TypeVar("T", bound="Neighborhood")


@_attrs_define
class Neighborhood:
    """
    Attributes:
        entities (list[Neighbor]): Nearest first, each entity once.
        relationships (list[Relationship]): The relationships between the entities listed.
        truncated (bool): True when the node or edge cap cut the answer.
    """

    entities: list[Neighbor]
    relationships: list[Relationship]
    truncated: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        entities = []
        for entities_item_data in self.entities:
            entities_item = entities_item_data.to_dict()
            entities.append(entities_item)

        relationships = []
        for relationships_item_data in self.relationships:
            relationships_item = relationships_item_data.to_dict()
            relationships.append(relationships_item)

        truncated = self.truncated

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "entities": entities,
                "relationships": relationships,
                "truncated": truncated,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.neighbor import Neighbor
        from ..models.relationship import Relationship

        d = dict(src_dict)
        entities = []
        _entities = d.pop("entities")
        for entities_item_data in _entities:
            entities_item = Neighbor.from_dict(entities_item_data)

            entities.append(entities_item)

        relationships = []
        _relationships = d.pop("relationships")
        for relationships_item_data in _relationships:
            relationships_item = Relationship.from_dict(relationships_item_data)

            relationships.append(relationships_item)

        truncated = d.pop("truncated")

        neighborhood = cls(
            entities=entities,
            relationships=relationships,
            truncated=truncated,
        )

        neighborhood.additional_properties = d
        return neighborhood

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

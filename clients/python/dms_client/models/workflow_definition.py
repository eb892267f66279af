from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.step_out import StepOut


T = TypeVar("T", bound="WorkflowDefinition")


@_attrs_define
class WorkflowDefinition:
    """
    Attributes:
        created_at (datetime.datetime):
        description (None | str):
        id (str):
        name (str):
        steps (list[StepOut]):
        updated_at (datetime.datetime):
        version (int): Increments when the steps change.
    """

    created_at: datetime.datetime
    description: None | str
    id: str
    name: str
    steps: list[StepOut]
    updated_at: datetime.datetime
    version: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        description: None | str
        description = self.description

        id = self.id

        name = self.name

        steps = []
        for steps_item_data in self.steps:
            steps_item = steps_item_data.to_dict()
            steps.append(steps_item)

        updated_at = self.updated_at.isoformat()

        version = self.version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "description": description,
                "id": id,
                "name": name,
                "steps": steps,
                "updatedAt": updated_at,
                "version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.step_out import StepOut

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))

        id = d.pop("id")

        name = d.pop("name")

        steps = []
        _steps = d.pop("steps")
        for steps_item_data in _steps:
            steps_item = StepOut.from_dict(steps_item_data)

            steps.append(steps_item)

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        version = d.pop("version")

        workflow_definition = cls(
            created_at=created_at,
            description=description,
            id=id,
            name=name,
            steps=steps,
            updated_at=updated_at,
            version=version,
        )

        workflow_definition.additional_properties = d
        return workflow_definition

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

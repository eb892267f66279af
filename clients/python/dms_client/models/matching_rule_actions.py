from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.matching_rule_actions_setcustomfields import (
        MatchingRuleActionsSetcustomfields,
    )
    from ..models.matching_rule_actions_setmetadata import (
        MatchingRuleActionsSetmetadata,
    )


T = TypeVar("T", bound="MatchingRuleActions")


@_attrs_define
class MatchingRuleActions:
    """
    Attributes:
        add_tags (list[str]):
        set_custom_fields (MatchingRuleActionsSetcustomfields):
        set_metadata (MatchingRuleActionsSetmetadata):
        start_workflow (None | str):
    """

    add_tags: list[str]
    set_custom_fields: MatchingRuleActionsSetcustomfields
    set_metadata: MatchingRuleActionsSetmetadata
    start_workflow: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        add_tags = self.add_tags

        set_custom_fields = self.set_custom_fields.to_dict()

        set_metadata = self.set_metadata.to_dict()

        start_workflow: None | str
        start_workflow = self.start_workflow

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "addTags": add_tags,
                "setCustomFields": set_custom_fields,
                "setMetadata": set_metadata,
                "startWorkflow": start_workflow,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.matching_rule_actions_setcustomfields import (
            MatchingRuleActionsSetcustomfields,
        )
        from ..models.matching_rule_actions_setmetadata import (
            MatchingRuleActionsSetmetadata,
        )

        d = dict(src_dict)
        add_tags = cast(list[str], d.pop("addTags"))

        set_custom_fields = MatchingRuleActionsSetcustomfields.from_dict(
            d.pop("setCustomFields")
        )

        set_metadata = MatchingRuleActionsSetmetadata.from_dict(d.pop("setMetadata"))

        def _parse_start_workflow(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        start_workflow = _parse_start_workflow(d.pop("startWorkflow"))

        matching_rule_actions = cls(
            add_tags=add_tags,
            set_custom_fields=set_custom_fields,
            set_metadata=set_metadata,
            start_workflow=start_workflow,
        )

        matching_rule_actions.additional_properties = d
        return matching_rule_actions

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

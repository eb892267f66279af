from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.matching_rule_actions import MatchingRuleActions
    from ..models.matching_rule_match import MatchingRuleMatch


T = TypeVar("T", bound="MatchingRule")


@_attrs_define
class MatchingRule:
    """
    Attributes:
        actions (MatchingRuleActions):
        created_at (datetime.datetime):
        enabled (bool):
        id (str):
        match (MatchingRuleMatch):
        name (str):
        order (int):
        updated_at (datetime.datetime):
    """

    actions: MatchingRuleActions
    created_at: datetime.datetime
    enabled: bool
    id: str
    match: MatchingRuleMatch
    name: str
    order: int
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        actions = self.actions.to_dict()

        created_at = self.created_at.isoformat()

        enabled = self.enabled

        id = self.id

        match = self.match.to_dict()

        name = self.name

        order = self.order

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "actions": actions,
                "createdAt": created_at,
                "enabled": enabled,
                "id": id,
                "match": match,
                "name": name,
                "order": order,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.matching_rule_actions import MatchingRuleActions
        from ..models.matching_rule_match import MatchingRuleMatch

        d = dict(src_dict)
        actions = MatchingRuleActions.from_dict(d.pop("actions"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        enabled = d.pop("enabled")

        id = d.pop("id")

        match = MatchingRuleMatch.from_dict(d.pop("match"))

        name = d.pop("name")

        order = d.pop("order")

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        matching_rule = cls(
            actions=actions,
            created_at=created_at,
            enabled=enabled,
            id=id,
            match=match,
            name=name,
            order=order,
            updated_at=updated_at,
        )

        matching_rule.additional_properties = d
        return matching_rule

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

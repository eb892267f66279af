from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.matching_rule_actions_in import MatchingRuleActionsIn
    from ..models.matching_rule_match_in import MatchingRuleMatchIn


T = TypeVar("T", bound="MatchingRulePatch")


@_attrs_define
class MatchingRulePatch:
    """PATCH /matching-rules/{id}: only the fields sent change; `match` and `actions` replace
    the rule's whole.

        Attributes:
            actions (MatchingRuleActionsIn | Unset): What a rule does to a document it matches.
            enabled (bool | Unset):
            match (MatchingRuleMatchIn | Unset): What a rule looks for, and where.
            name (str | Unset):
            order (int | Unset):
    """

    actions: MatchingRuleActionsIn | Unset = UNSET
    enabled: bool | Unset = UNSET
    match: MatchingRuleMatchIn | Unset = UNSET
    name: str | Unset = UNSET
    order: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        actions: dict[str, Any] | Unset = UNSET
        if not isinstance(self.actions, Unset):
            actions = self.actions.to_dict()

        enabled = self.enabled

        match: dict[str, Any] | Unset = UNSET
        if not isinstance(self.match, Unset):
            match = self.match.to_dict()

        name = self.name

        order = self.order

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if actions is not UNSET:
            field_dict["actions"] = actions
        if enabled is not UNSET:
            field_dict["enabled"] = enabled
        if match is not UNSET:
            field_dict["match"] = match
        if name is not UNSET:
            field_dict["name"] = name
        if order is not UNSET:
            field_dict["order"] = order

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.matching_rule_actions_in import MatchingRuleActionsIn
        from ..models.matching_rule_match_in import MatchingRuleMatchIn

        d = dict(src_dict)
        _actions = d.pop("actions", UNSET)
        actions: MatchingRuleActionsIn | Unset
        if isinstance(_actions, Unset):
            actions = UNSET
        else:
            actions = MatchingRuleActionsIn.from_dict(_actions)

        enabled = d.pop("enabled", UNSET)

        _match = d.pop("match", UNSET)
        match: MatchingRuleMatchIn | Unset
        if isinstance(_match, Unset):
            match = UNSET
        else:
            match = MatchingRuleMatchIn.from_dict(_match)

        name = d.pop("name", UNSET)

        order = d.pop("order", UNSET)

        matching_rule_patch = cls(
            actions=actions,
            enabled=enabled,
            match=match,
            name=name,
            order=order,
        )

        return matching_rule_patch

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.matching_rule_actions_in import MatchingRuleActionsIn
    from ..models.matching_rule_match_in import MatchingRuleMatchIn


T = TypeVar("T", bound="MatchingRuleCreate")


@_attrs_define
class MatchingRuleCreate:
    """POST /matching-rules.

    Attributes:
        actions (MatchingRuleActionsIn): What a rule does to a document it matches.
        match (MatchingRuleMatchIn): What a rule looks for, and where.
        name (str):
        enabled (bool | Unset):  Default: True.
        order (int | Unset): Lower runs first. Default: 0.
    """

    actions: MatchingRuleActionsIn
    match: MatchingRuleMatchIn
    name: str
    enabled: bool | Unset = True
    order: int | Unset = 0

    def to_dict(self) -> dict[str, Any]:
        actions = self.actions.to_dict()

        match = self.match.to_dict()

        name = self.name

        enabled = self.enabled

        order = self.order

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "actions": actions,
                "match": match,
                "name": name,
            }
        )
        if enabled is not UNSET:
            field_dict["enabled"] = enabled
        if order is not UNSET:
            field_dict["order"] = order

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.matching_rule_actions_in import MatchingRuleActionsIn
        from ..models.matching_rule_match_in import MatchingRuleMatchIn

        d = dict(src_dict)
        actions = MatchingRuleActionsIn.from_dict(d.pop("actions"))

        match = MatchingRuleMatchIn.from_dict(d.pop("match"))

        name = d.pop("name")

        enabled = d.pop("enabled", UNSET)

        order = d.pop("order", UNSET)

        matching_rule_create = cls(
            actions=actions,
            match=match,
            name=name,
            enabled=enabled,
            order=order,
        )

        return matching_rule_create

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="MatchingRuleMatch")


@_attrs_define
class MatchingRuleMatch:
    """
    Attributes:
        algorithm (str):
        case_sensitive (bool):
        in_ (str):
        pattern (str):
    """

    algorithm: str
    case_sensitive: bool
    in_: str
    pattern: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        algorithm = self.algorithm

        case_sensitive = self.case_sensitive

        in_ = self.in_

        pattern = self.pattern

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "algorithm": algorithm,
                "caseSensitive": case_sensitive,
                "in": in_,
                "pattern": pattern,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        algorithm = d.pop("algorithm")

        case_sensitive = d.pop("caseSensitive")

        in_ = d.pop("in")

        pattern = d.pop("pattern")

        matching_rule_match = cls(
            algorithm=algorithm,
            case_sensitive=case_sensitive,
            in_=in_,
            pattern=pattern,
        )

        matching_rule_match.additional_properties = d
        return matching_rule_match

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

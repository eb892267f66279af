from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.algorithm import Algorithm
from ..models.match_field import MatchField
from ..types import UNSET, Unset

T = TypeVar("T", bound="MatchingRuleMatchIn")


@_attrs_define
class MatchingRuleMatchIn:
    """What a rule looks for, and where.

    Attributes:
        algorithm (Algorithm):
        case_sensitive (bool | Unset):  Default: False.
        in_ (MatchField | Unset):
        pattern (str | Unset): Unused (empty) for auto. Default: ''.
    """

    algorithm: Algorithm
    case_sensitive: bool | Unset = False
    in_: MatchField | Unset = UNSET
    pattern: str | Unset = ""

    def to_dict(self) -> dict[str, Any]:
        algorithm = self.algorithm.value

        case_sensitive = self.case_sensitive

        in_: str | Unset = UNSET
        if not isinstance(self.in_, Unset):
            in_ = self.in_.value

        pattern = self.pattern

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "algorithm": algorithm,
            }
        )
        if case_sensitive is not UNSET:
            field_dict["caseSensitive"] = case_sensitive
        if in_ is not UNSET:
            field_dict["in"] = in_
        if pattern is not UNSET:
            field_dict["pattern"] = pattern

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        algorithm = Algorithm(d.pop("algorithm"))

        case_sensitive = d.pop("caseSensitive", UNSET)

        _in_ = d.pop("in", UNSET)
        in_: MatchField | Unset
        if isinstance(_in_, Unset):
            in_ = UNSET
        else:
            in_ = MatchField(_in_)

        pattern = d.pop("pattern", UNSET)

        matching_rule_match_in = cls(
            algorithm=algorithm,
            case_sensitive=case_sensitive,
            in_=in_,
            pattern=pattern,
        )

        return matching_rule_match_in

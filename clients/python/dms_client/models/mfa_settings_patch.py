from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="MfaSettingsPatch")


@_attrs_define
class MfaSettingsPatch:
    """PATCH /mfa-settings.

    Attributes:
        require_mfa (bool | Unset):
    """

    require_mfa: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        require_mfa = self.require_mfa

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if require_mfa is not UNSET:
            field_dict["requireMfa"] = require_mfa

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        require_mfa = d.pop("requireMfa", UNSET)

        mfa_settings_patch = cls(
            require_mfa=require_mfa,
        )

        return mfa_settings_patch

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="MfaStatus")


@_attrs_define
class MfaStatus:
    """
    Attributes:
        passkeys (int): Passkeys registered.
        recovery_codes_left (int):
        totp (bool): TOTP is on.
    """

    passkeys: int
    recovery_codes_left: int
    totp: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        passkeys = self.passkeys

        recovery_codes_left = self.recovery_codes_left

        totp = self.totp

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "passkeys": passkeys,
                "recoveryCodesLeft": recovery_codes_left,
                "totp": totp,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        passkeys = d.pop("passkeys")

        recovery_codes_left = d.pop("recoveryCodesLeft")

        totp = d.pop("totp")

        mfa_status = cls(
            passkeys=passkeys,
            recovery_codes_left=recovery_codes_left,
            totp=totp,
        )

        mfa_status.additional_properties = d
        return mfa_status

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

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="MfaLoginBody")


@_attrs_define
class MfaLoginBody:
    """POST /login/mfa: the token of the password step and one second factor.

    Attributes:
        mfa_token (str):
        code (None | str | Unset): A TOTP code.
        recovery_code (None | str | Unset): One of the recovery codes (single-use).
    """

    mfa_token: str
    code: None | str | Unset = UNSET
    recovery_code: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        mfa_token = self.mfa_token

        code: None | str | Unset
        if isinstance(self.code, Unset):
            code = UNSET
        else:
            code = self.code

        recovery_code: None | str | Unset
        if isinstance(self.recovery_code, Unset):
            recovery_code = UNSET
        else:
            recovery_code = self.recovery_code

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "mfaToken": mfa_token,
            }
        )
        if code is not UNSET:
            field_dict["code"] = code
        if recovery_code is not UNSET:
            field_dict["recoveryCode"] = recovery_code

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        mfa_token = d.pop("mfaToken")

        def _parse_code(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        code = _parse_code(d.pop("code", UNSET))

        def _parse_recovery_code(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        recovery_code = _parse_recovery_code(d.pop("recoveryCode", UNSET))

        mfa_login_body = cls(
            mfa_token=mfa_token,
            code=code,
            recovery_code=recovery_code,
        )

        return mfa_login_body

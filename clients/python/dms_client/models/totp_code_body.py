from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="TotpCodeBody")


@_attrs_define
class TotpCodeBody:
    """POST /me/mfa/totp/confirm and DELETE /me/mfa/totp.

    Attributes:
        code (str): The six digits the authenticator app shows now (turning off also takes a recovery code).
    """

    code: str

    def to_dict(self) -> dict[str, Any]:
        code = self.code

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "code": code,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        code = d.pop("code")

        totp_code_body = cls(
            code=code,
        )

        return totp_code_body

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PasskeyAuthenticationOptionsBody")


@_attrs_define
class PasskeyAuthenticationOptionsBody:
    """
    Attributes:
        email (None | str | Unset): Lists only this person's passkeys; leave out to let the authenticator offer its
            discoverable passkeys for this site.
    """

    email: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        email: None | str | Unset
        if isinstance(self.email, Unset):
            email = UNSET
        else:
            email = self.email

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if email is not UNSET:
            field_dict["email"] = email

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_email(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        email = _parse_email(d.pop("email", UNSET))

        passkey_authentication_options_body = cls(
            email=email,
        )

        return passkey_authentication_options_body

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.authentication_credential_json import AuthenticationCredentialJSON


T = TypeVar("T", bound="PasskeyAuthenticationVerifyBody")


@_attrs_define
class PasskeyAuthenticationVerifyBody:
    """
    Attributes:
        challenge_id (str):
        credential (AuthenticationCredentialJSON): What navigator.credentials.get() resolved to, as JSON.
    """

    challenge_id: str
    credential: AuthenticationCredentialJSON

    def to_dict(self) -> dict[str, Any]:
        challenge_id = self.challenge_id

        credential = self.credential.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "challengeId": challenge_id,
                "credential": credential,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.authentication_credential_json import AuthenticationCredentialJSON

        d = dict(src_dict)
        challenge_id = d.pop("challengeId")

        credential = AuthenticationCredentialJSON.from_dict(d.pop("credential"))

        passkey_authentication_verify_body = cls(
            challenge_id=challenge_id,
            credential=credential,
        )

        return passkey_authentication_verify_body

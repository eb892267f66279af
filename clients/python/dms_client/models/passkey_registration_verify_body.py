from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.registration_credential_json import RegistrationCredentialJSON


T = TypeVar("T", bound="PasskeyRegistrationVerifyBody")


@_attrs_define
class PasskeyRegistrationVerifyBody:
    """
    Attributes:
        challenge_id (str):
        credential (RegistrationCredentialJSON): What navigator.credentials.create() resolved to, as JSON.
        name (None | str | Unset): A label; default 'Passkey added …'.
    """

    challenge_id: str
    credential: RegistrationCredentialJSON
    name: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        challenge_id = self.challenge_id

        credential = self.credential.to_dict()

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "challengeId": challenge_id,
                "credential": credential,
            }
        )
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.registration_credential_json import RegistrationCredentialJSON

        d = dict(src_dict)
        challenge_id = d.pop("challengeId")

        credential = RegistrationCredentialJSON.from_dict(d.pop("credential"))

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        passkey_registration_verify_body = cls(
            challenge_id=challenge_id,
            credential=credential,
            name=name,
        )

        return passkey_registration_verify_body

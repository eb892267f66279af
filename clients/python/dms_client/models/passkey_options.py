from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.passkey_options_publickey import PasskeyOptionsPublickey


T = TypeVar("T", bound="PasskeyOptions")


@_attrs_define
class PasskeyOptions:
    """Options for the browser, and the id of the server-side challenge they carry.

    Attributes:
        challenge_id (str): Send back to verify; single use, valid 5 minutes.
        public_key (PasskeyOptionsPublickey): PublicKeyCredentialCreationOptionsJSON (registration) or
            PublicKeyCredentialRequestOptionsJSON (authentication): give it to
            PublicKeyCredential.parseCreationOptionsFromJSON / parseRequestOptionsFromJSON.
    """

    challenge_id: str
    public_key: PasskeyOptionsPublickey
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        challenge_id = self.challenge_id

        public_key = self.public_key.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "challengeId": challenge_id,
                "publicKey": public_key,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.passkey_options_publickey import PasskeyOptionsPublickey

        d = dict(src_dict)
        challenge_id = d.pop("challengeId")

        public_key = PasskeyOptionsPublickey.from_dict(d.pop("publicKey"))

        passkey_options = cls(
            challenge_id=challenge_id,
            public_key=public_key,
        )

        passkey_options.additional_properties = d
        return passkey_options

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

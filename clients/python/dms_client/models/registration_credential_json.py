from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.registration_credential_json_authenticator_attachment_type_0 import (
    RegistrationCredentialJSONAuthenticatorAttachmentType0,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.attestation_response_json import AttestationResponseJSON


T = TypeVar("T", bound="RegistrationCredentialJSON")


@_attrs_define
class RegistrationCredentialJSON:
    """What navigator.credentials.create() resolved to, as JSON.

    Attributes:
        id (str): base64url, without padding as browsers send it
        raw_id (str): base64url, without padding as browsers send it
        response (AttestationResponseJSON):
        type_ (Literal['public-key']):
        authenticator_attachment (None | RegistrationCredentialJSONAuthenticatorAttachmentType0 | Unset):
    """

    id: str
    raw_id: str
    response: AttestationResponseJSON
    type_: Literal["public-key"]
    authenticator_attachment: (
        None | RegistrationCredentialJSONAuthenticatorAttachmentType0 | Unset
    ) = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        raw_id = self.raw_id

        response = self.response.to_dict()

        type_ = self.type_

        authenticator_attachment: None | str | Unset
        if isinstance(self.authenticator_attachment, Unset):
            authenticator_attachment = UNSET
        elif isinstance(
            self.authenticator_attachment,
            RegistrationCredentialJSONAuthenticatorAttachmentType0,
        ):
            authenticator_attachment = self.authenticator_attachment.value
        else:
            authenticator_attachment = self.authenticator_attachment

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "rawId": raw_id,
                "response": response,
                "type": type_,
            }
        )
        if authenticator_attachment is not UNSET:
            field_dict["authenticatorAttachment"] = authenticator_attachment

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.attestation_response_json import AttestationResponseJSON

        d = dict(src_dict)
        id = d.pop("id")

        raw_id = d.pop("rawId")

        response = AttestationResponseJSON.from_dict(d.pop("response"))

        type_ = cast(Literal["public-key"], d.pop("type"))
        if type_ != "public-key":
            raise ValueError(f"type must match const 'public-key', got '{type_}'")

        def _parse_authenticator_attachment(
            data: object,
        ) -> None | RegistrationCredentialJSONAuthenticatorAttachmentType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                authenticator_attachment_type_0 = (
                    RegistrationCredentialJSONAuthenticatorAttachmentType0(data)
                )

                return authenticator_attachment_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                None | RegistrationCredentialJSONAuthenticatorAttachmentType0 | Unset,
                data,
            )

        authenticator_attachment = _parse_authenticator_attachment(
            d.pop("authenticatorAttachment", UNSET)
        )

        registration_credential_json = cls(
            id=id,
            raw_id=raw_id,
            response=response,
            type_=type_,
            authenticator_attachment=authenticator_attachment,
        )

        registration_credential_json.additional_properties = d
        return registration_credential_json

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

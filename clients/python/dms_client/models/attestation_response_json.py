from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="AttestationResponseJSON")


@_attrs_define
class AttestationResponseJSON:
    """
    Attributes:
        attestation_object (str): base64url, without padding as browsers send it
        client_data_json (str): base64url, without padding as browsers send it
        transports (list[str] | Unset):
    """

    attestation_object: str
    client_data_json: str
    transports: list[str] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        attestation_object = self.attestation_object

        client_data_json = self.client_data_json

        transports: list[str] | Unset = UNSET
        if not isinstance(self.transports, Unset):
            transports = self.transports

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "attestationObject": attestation_object,
                "clientDataJSON": client_data_json,
            }
        )
        if transports is not UNSET:
            field_dict["transports"] = transports

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        attestation_object = d.pop("attestationObject")

        client_data_json = d.pop("clientDataJSON")

        transports = cast(list[str], d.pop("transports", UNSET))

        attestation_response_json = cls(
            attestation_object=attestation_object,
            client_data_json=client_data_json,
            transports=transports,
        )

        attestation_response_json.additional_properties = d
        return attestation_response_json

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

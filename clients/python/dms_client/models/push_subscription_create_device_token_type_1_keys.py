from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PushSubscriptionCreateDeviceTokenType1Keys")


@_attrs_define
class PushSubscriptionCreateDeviceTokenType1Keys:
    """
    Attributes:
        auth (str):
        p256dh (str):
    """

    auth: str
    p256dh: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        auth = self.auth

        p256dh = self.p256dh

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "auth": auth,
                "p256dh": p256dh,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        auth = d.pop("auth")

        p256dh = d.pop("p256dh")

        push_subscription_create_device_token_type_1_keys = cls(
            auth=auth,
            p256dh=p256dh,
        )

        push_subscription_create_device_token_type_1_keys.additional_properties = d
        return push_subscription_create_device_token_type_1_keys

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

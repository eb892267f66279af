from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.push_subscription_create_platform import PushSubscriptionCreatePlatform

if TYPE_CHECKING:
    from ..models.push_subscription_create_device_token_type_1 import (
        PushSubscriptionCreateDeviceTokenType1,
    )


T = TypeVar("T", bound="PushSubscriptionCreate")


@_attrs_define
class PushSubscriptionCreate:
    """POST /push/subscriptions.

    Attributes:
        device_token (PushSubscriptionCreateDeviceTokenType1 | str): ios: the APNs device token (64 hex characters);
            android: the FCM registration token; web: the Web Push subscription, as a JSON string or object.
        platform (PushSubscriptionCreatePlatform):
    """

    device_token: PushSubscriptionCreateDeviceTokenType1 | str
    platform: PushSubscriptionCreatePlatform

    def to_dict(self) -> dict[str, Any]:
        from ..models.push_subscription_create_device_token_type_1 import (
            PushSubscriptionCreateDeviceTokenType1,
        )

        device_token: dict[str, Any] | str
        if isinstance(self.device_token, PushSubscriptionCreateDeviceTokenType1):
            device_token = self.device_token.to_dict()
        else:
            device_token = self.device_token

        platform = self.platform.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "DeviceToken": device_token,
                "Platform": platform,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.push_subscription_create_device_token_type_1 import (
            PushSubscriptionCreateDeviceTokenType1,
        )

        d = dict(src_dict)

        def _parse_device_token(
            data: object,
        ) -> PushSubscriptionCreateDeviceTokenType1 | str:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                device_token_type_1 = PushSubscriptionCreateDeviceTokenType1.from_dict(
                    data
                )

                return device_token_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(PushSubscriptionCreateDeviceTokenType1 | str, data)

        device_token = _parse_device_token(d.pop("DeviceToken"))

        platform = PushSubscriptionCreatePlatform(d.pop("Platform"))

        push_subscription_create = cls(
            device_token=device_token,
            platform=platform,
        )

        return push_subscription_create

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.push_subscription_platform import PushSubscriptionPlatform

T = TypeVar("T", bound="PushSubscription")


@_attrs_define
class PushSubscription:
    """
    Attributes:
        created_at (datetime.datetime):
        id (str): psh_…
        last_delivered_at (datetime.datetime | None):
        platform (PushSubscriptionPlatform):
        token_hint (str): The end of the device token (for web, the push service's host and the end of the endpoint), to
            tell devices apart; the token itself is never answered.
    """

    created_at: datetime.datetime
    id: str
    last_delivered_at: datetime.datetime | None
    platform: PushSubscriptionPlatform
    token_hint: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        id = self.id

        last_delivered_at: None | str
        if isinstance(self.last_delivered_at, datetime.datetime):
            last_delivered_at = self.last_delivered_at.isoformat()
        else:
            last_delivered_at = self.last_delivered_at

        platform = self.platform.value

        token_hint = self.token_hint

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "id": id,
                "lastDeliveredAt": last_delivered_at,
                "platform": platform,
                "tokenHint": token_hint,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        id = d.pop("id")

        def _parse_last_delivered_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_delivered_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_delivered_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_delivered_at = _parse_last_delivered_at(d.pop("lastDeliveredAt"))

        platform = PushSubscriptionPlatform(d.pop("platform"))

        token_hint = d.pop("tokenHint")

        push_subscription = cls(
            created_at=created_at,
            id=id,
            last_delivered_at=last_delivered_at,
            platform=platform,
            token_hint=token_hint,
        )

        push_subscription.additional_properties = d
        return push_subscription

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

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.push_delivery_pushchannel import PushDeliveryPushchannel
from ..models.push_delivery_status import PushDeliveryStatus

T = TypeVar("T", bound="PushDelivery")


@_attrs_define
class PushDelivery:
    """
    Attributes:
        at (datetime.datetime): When the status last changed.
        push_channel (PushDeliveryPushchannel):
        status (PushDeliveryStatus):
    """

    at: datetime.datetime
    push_channel: PushDeliveryPushchannel
    status: PushDeliveryStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        at = self.at.isoformat()

        push_channel = self.push_channel.value

        status = self.status.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "at": at,
                "pushChannel": push_channel,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        at = datetime.datetime.fromisoformat(d.pop("at"))

        push_channel = PushDeliveryPushchannel(d.pop("pushChannel"))

        status = PushDeliveryStatus(d.pop("status"))

        push_delivery = cls(
            at=at,
            push_channel=push_channel,
            status=status,
        )

        push_delivery.additional_properties = d
        return push_delivery

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

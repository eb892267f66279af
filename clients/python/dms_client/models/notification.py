from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.notification_data import NotificationData
    from ..models.push_delivery import PushDelivery


T = TypeVar("T", bound="Notification")


@_attrs_define
class Notification:
    """
    Attributes:
        body (str):
        created_at (datetime.datetime):
        data (NotificationData): Ids of what the notification is about.
        deliveries (list[PushDelivery]): One entry per device the notification was pushed to (docs/push.md).
        id (str):
        read_at (datetime.datetime | None):
        title (str):
        type_ (str): The cause (docs/notifications.md lists them).
    """

    body: str
    created_at: datetime.datetime
    data: NotificationData
    deliveries: list[PushDelivery]
    id: str
    read_at: datetime.datetime | None
    title: str
    type_: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        body = self.body

        created_at = self.created_at.isoformat()

        data = self.data.to_dict()

        deliveries = []
        for deliveries_item_data in self.deliveries:
            deliveries_item = deliveries_item_data.to_dict()
            deliveries.append(deliveries_item)

        id = self.id

        read_at: None | str
        if isinstance(self.read_at, datetime.datetime):
            read_at = self.read_at.isoformat()
        else:
            read_at = self.read_at

        title = self.title

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "body": body,
                "createdAt": created_at,
                "data": data,
                "deliveries": deliveries,
                "id": id,
                "readAt": read_at,
                "title": title,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.notification_data import NotificationData
        from ..models.push_delivery import PushDelivery

        d = dict(src_dict)
        body = d.pop("body")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        data = NotificationData.from_dict(d.pop("data"))

        deliveries = []
        _deliveries = d.pop("deliveries")
        for deliveries_item_data in _deliveries:
            deliveries_item = PushDelivery.from_dict(deliveries_item_data)

            deliveries.append(deliveries_item)

        id = d.pop("id")

        def _parse_read_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                read_at_type_0 = datetime.datetime.fromisoformat(data)

                return read_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        read_at = _parse_read_at(d.pop("readAt"))

        title = d.pop("title")

        type_ = d.pop("type")

        notification = cls(
            body=body,
            created_at=created_at,
            data=data,
            deliveries=deliveries,
            id=id,
            read_at=read_at,
            title=title,
            type_=type_,
        )

        notification.additional_properties = d
        return notification

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

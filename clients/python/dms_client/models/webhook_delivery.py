from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.webhook_attempt import WebhookAttempt


T = TypeVar("T", bound="WebhookDelivery")


@_attrs_define
class WebhookDelivery:
    """
    Attributes:
        attempt_count (int):
        attempts (list[WebhookAttempt]):
        completed_at (datetime.datetime | None):
        created_at (datetime.datetime):
        endpoint_id (str):
        event_id (str):
        event_type (str):
        id (str):
        next_attempt_at (datetime.datetime | None):
        status (str): pending, retrying, succeeded or failed.
    """

    attempt_count: int
    attempts: list[WebhookAttempt]
    completed_at: datetime.datetime | None
    created_at: datetime.datetime
    endpoint_id: str
    event_id: str
    event_type: str
    id: str
    next_attempt_at: datetime.datetime | None
    status: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        attempt_count = self.attempt_count

        attempts = []
        for attempts_item_data in self.attempts:
            attempts_item = attempts_item_data.to_dict()
            attempts.append(attempts_item)

        completed_at: None | str
        if isinstance(self.completed_at, datetime.datetime):
            completed_at = self.completed_at.isoformat()
        else:
            completed_at = self.completed_at

        created_at = self.created_at.isoformat()

        endpoint_id = self.endpoint_id

        event_id = self.event_id

        event_type = self.event_type

        id = self.id

        next_attempt_at: None | str
        if isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        status = self.status

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "attemptCount": attempt_count,
                "attempts": attempts,
                "completedAt": completed_at,
                "createdAt": created_at,
                "endpointId": endpoint_id,
                "eventId": event_id,
                "eventType": event_type,
                "id": id,
                "nextAttemptAt": next_attempt_at,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.webhook_attempt import WebhookAttempt

        d = dict(src_dict)
        attempt_count = d.pop("attemptCount")

        attempts = []
        _attempts = d.pop("attempts")
        for attempts_item_data in _attempts:
            attempts_item = WebhookAttempt.from_dict(attempts_item_data)

            attempts.append(attempts_item)

        def _parse_completed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                completed_at_type_0 = datetime.datetime.fromisoformat(data)

                return completed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        completed_at = _parse_completed_at(d.pop("completedAt"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        endpoint_id = d.pop("endpointId")

        event_id = d.pop("eventId")

        event_type = d.pop("eventType")

        id = d.pop("id")

        def _parse_next_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("nextAttemptAt"))

        status = d.pop("status")

        webhook_delivery = cls(
            attempt_count=attempt_count,
            attempts=attempts,
            completed_at=completed_at,
            created_at=created_at,
            endpoint_id=endpoint_id,
            event_id=event_id,
            event_type=event_type,
            id=id,
            next_attempt_at=next_attempt_at,
            status=status,
        )

        webhook_delivery.additional_properties = d
        return webhook_delivery

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

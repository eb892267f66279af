from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="WebhookEndpoint")


@_attrs_define
class WebhookEndpoint:
    """
    Attributes:
        created_at (datetime.datetime):
        description (None | str):
        disabled_reason (None | str):
        enabled (bool):
        events (list[str]):
        id (str):
        previous_secret_expires_at (datetime.datetime | None):
        updated_at (datetime.datetime):
        url (str):
    """

    created_at: datetime.datetime
    description: None | str
    disabled_reason: None | str
    enabled: bool
    events: list[str]
    id: str
    previous_secret_expires_at: datetime.datetime | None
    updated_at: datetime.datetime
    url: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        description: None | str
        description = self.description

        disabled_reason: None | str
        disabled_reason = self.disabled_reason

        enabled = self.enabled

        events = self.events

        id = self.id

        previous_secret_expires_at: None | str
        if isinstance(self.previous_secret_expires_at, datetime.datetime):
            previous_secret_expires_at = self.previous_secret_expires_at.isoformat()
        else:
            previous_secret_expires_at = self.previous_secret_expires_at

        updated_at = self.updated_at.isoformat()

        url = self.url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "description": description,
                "disabledReason": disabled_reason,
                "enabled": enabled,
                "events": events,
                "id": id,
                "previousSecretExpiresAt": previous_secret_expires_at,
                "updatedAt": updated_at,
                "url": url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))

        def _parse_disabled_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        disabled_reason = _parse_disabled_reason(d.pop("disabledReason"))

        enabled = d.pop("enabled")

        events = cast(list[str], d.pop("events"))

        id = d.pop("id")

        def _parse_previous_secret_expires_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                previous_secret_expires_at_type_0 = datetime.datetime.fromisoformat(
                    data
                )

                return previous_secret_expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        previous_secret_expires_at = _parse_previous_secret_expires_at(
            d.pop("previousSecretExpiresAt")
        )

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        url = d.pop("url")

        webhook_endpoint = cls(
            created_at=created_at,
            description=description,
            disabled_reason=disabled_reason,
            enabled=enabled,
            events=events,
            id=id,
            previous_secret_expires_at=previous_secret_expires_at,
            updated_at=updated_at,
            url=url,
        )

        webhook_endpoint.additional_properties = d
        return webhook_endpoint

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

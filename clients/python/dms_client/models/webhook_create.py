from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookCreate")


@_attrs_define
class WebhookCreate:
    """POST /webhooks.

    Attributes:
        events (list[str]): Event types (GET /webhooks/event-types), or ["*"] for all, new ones too.
        url (str): https:// URL that receives the events (POST, JSON).
        description (None | str | Unset):
        enabled (bool | Unset):  Default: True.
    """

    events: list[str]
    url: str
    description: None | str | Unset = UNSET
    enabled: bool | Unset = True

    def to_dict(self) -> dict[str, Any]:
        events = self.events

        url = self.url

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        enabled = self.enabled

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "events": events,
                "url": url,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description
        if enabled is not UNSET:
            field_dict["enabled"] = enabled

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        events = cast(list[str], d.pop("events"))

        url = d.pop("url")

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        enabled = d.pop("enabled", UNSET)

        webhook_create = cls(
            events=events,
            url=url,
            description=description,
            enabled=enabled,
        )

        return webhook_create

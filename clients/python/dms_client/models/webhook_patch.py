from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookPatch")


@_attrs_define
class WebhookPatch:
    """PATCH /webhooks/{id}: only the fields sent change; a null description clears it.

    Attributes:
        description (None | str | Unset):
        enabled (bool | Unset):
        events (list[str] | Unset):
        url (str | Unset):
    """

    description: None | str | Unset = UNSET
    enabled: bool | Unset = UNSET
    events: list[str] | Unset = UNSET
    url: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        enabled = self.enabled

        events: list[str] | Unset = UNSET
        if not isinstance(self.events, Unset):
            events = self.events

        url = self.url

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if description is not UNSET:
            field_dict["description"] = description
        if enabled is not UNSET:
            field_dict["enabled"] = enabled
        if events is not UNSET:
            field_dict["events"] = events
        if url is not UNSET:
            field_dict["url"] = url

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        enabled = d.pop("enabled", UNSET)

        events = cast(list[str], d.pop("events", UNSET))

        url = d.pop("url", UNSET)

        webhook_patch = cls(
            description=description,
            enabled=enabled,
            events=events,
            url=url,
        )

        return webhook_patch

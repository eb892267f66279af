from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.webhook_event_type_sample import WebhookEventTypeSample


T = TypeVar("T", bound="WebhookEventType")


@_attrs_define
class WebhookEventType:
    """
    Attributes:
        description (str):
        sample (WebhookEventTypeSample): A whole event of this type, as delivered.
        type_ (str):
    """

    description: str
    sample: WebhookEventTypeSample
    type_: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        description = self.description

        sample = self.sample.to_dict()

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "description": description,
                "sample": sample,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.webhook_event_type_sample import WebhookEventTypeSample

        d = dict(src_dict)
        description = d.pop("description")

        sample = WebhookEventTypeSample.from_dict(d.pop("sample"))

        type_ = d.pop("type")

        webhook_event_type = cls(
            description=description,
            sample=sample,
            type_=type_,
        )

        webhook_event_type.additional_properties = d
        return webhook_event_type

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

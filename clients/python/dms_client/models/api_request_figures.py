from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ApiRequestFigures")


@_attrs_define
class ApiRequestFigures:
    """
    Attributes:
        last_24_hours (int):
        last_hour (int):
    """

    last_24_hours: int
    last_hour: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        last_24_hours = self.last_24_hours

        last_hour = self.last_hour

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "last24Hours": last_24_hours,
                "lastHour": last_hour,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        last_24_hours = d.pop("last24Hours")

        last_hour = d.pop("lastHour")

        api_request_figures = cls(
            last_24_hours=last_24_hours,
            last_hour=last_hour,
        )

        api_request_figures.additional_properties = d
        return api_request_figures

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

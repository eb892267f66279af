from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CustomFieldOptionIn")


@_attrs_define
class CustomFieldOptionIn:
    """A select option: with the `id` of an option the field has, that option (relabelled);
    without one, a new option.

        Attributes:
            label (str):
            id (None | str | Unset):
    """

    label: str
    id: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        label = self.label

        id: None | str | Unset
        if isinstance(self.id, Unset):
            id = UNSET
        else:
            id = self.id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "label": label,
            }
        )
        if id is not UNSET:
            field_dict["id"] = id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        label = d.pop("label")

        def _parse_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        id = _parse_id(d.pop("id", UNSET))

        custom_field_option_in = cls(
            label=label,
            id=id,
        )

        return custom_field_option_in

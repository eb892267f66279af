from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.custom_field_type import CustomFieldType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.custom_field_option_in import CustomFieldOptionIn


T = TypeVar("T", bound="CustomFieldCreate")


@_attrs_define
class CustomFieldCreate:
    """POST /custom-fields.

    Attributes:
        data_type (CustomFieldType):
        name (str): Unique in the tenant, ignoring case.
        options (list[CustomFieldOptionIn] | Unset): select only: at least one option.
    """

    data_type: CustomFieldType
    name: str
    options: list[CustomFieldOptionIn] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        data_type = self.data_type.value

        name = self.name

        options: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.options, Unset):
            options = []
            for options_item_data in self.options:
                options_item = options_item_data.to_dict()
                options.append(options_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "dataType": data_type,
                "name": name,
            }
        )
        if options is not UNSET:
            field_dict["options"] = options

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.custom_field_option_in import CustomFieldOptionIn

        d = dict(src_dict)
        data_type = CustomFieldType(d.pop("dataType"))

        name = d.pop("name")

        _options = d.pop("options", UNSET)
        options: list[CustomFieldOptionIn] | Unset = UNSET
        if _options is not UNSET:
            options = []
            for options_item_data in _options:
                options_item = CustomFieldOptionIn.from_dict(options_item_data)

                options.append(options_item)

        custom_field_create = cls(
            data_type=data_type,
            name=name,
            options=options,
        )

        return custom_field_create

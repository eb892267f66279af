from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.custom_field_type import CustomFieldType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.custom_field_option_in import CustomFieldOptionIn


T = TypeVar("T", bound="CustomFieldPatch")


@_attrs_define
class CustomFieldPatch:
    """PATCH /custom-fields/{id}: only the fields sent change. A rename keeps every value; a
    select's options sent replace its options (options left out lose their values); the
    data type changes only while no document has a value (409 CONFLICT otherwise).

        Attributes:
            data_type (CustomFieldType | Unset):
            name (str | Unset):
            options (list[CustomFieldOptionIn] | Unset):
    """

    data_type: CustomFieldType | Unset = UNSET
    name: str | Unset = UNSET
    options: list[CustomFieldOptionIn] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        data_type: str | Unset = UNSET
        if not isinstance(self.data_type, Unset):
            data_type = self.data_type.value

        name = self.name

        options: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.options, Unset):
            options = []
            for options_item_data in self.options:
                options_item = options_item_data.to_dict()
                options.append(options_item)

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if data_type is not UNSET:
            field_dict["dataType"] = data_type
        if name is not UNSET:
            field_dict["name"] = name
        if options is not UNSET:
            field_dict["options"] = options

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.custom_field_option_in import CustomFieldOptionIn

        d = dict(src_dict)
        _data_type = d.pop("dataType", UNSET)
        data_type: CustomFieldType | Unset
        if isinstance(_data_type, Unset):
            data_type = UNSET
        else:
            data_type = CustomFieldType(_data_type)

        name = d.pop("name", UNSET)

        _options = d.pop("options", UNSET)
        options: list[CustomFieldOptionIn] | Unset = UNSET
        if _options is not UNSET:
            options = []
            for options_item_data in _options:
                options_item = CustomFieldOptionIn.from_dict(options_item_data)

                options.append(options_item)

        custom_field_patch = cls(
            data_type=data_type,
            name=name,
            options=options,
        )

        return custom_field_patch

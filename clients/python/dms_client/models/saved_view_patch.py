from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.saved_view_patch_columns_item import SavedViewPatchColumnsItem
from ..models.saved_view_patch_sort import SavedViewPatchSort
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.saved_view_patch_filters import SavedViewPatchFilters


T = TypeVar("T", bound="SavedViewPatch")


@_attrs_define
class SavedViewPatch:
    """PATCH /saved-views/{id}: every field optional, none null; `filters` replaces.

    Attributes:
        columns (list[SavedViewPatchColumnsItem] | Unset):
        filters (SavedViewPatchFilters | Unset):
        name (str | Unset):
        shared (bool | Unset):
        sort (SavedViewPatchSort | Unset):
    """

    columns: list[SavedViewPatchColumnsItem] | Unset = UNSET
    filters: SavedViewPatchFilters | Unset = UNSET
    name: str | Unset = UNSET
    shared: bool | Unset = UNSET
    sort: SavedViewPatchSort | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        columns: list[str] | Unset = UNSET
        if not isinstance(self.columns, Unset):
            columns = []
            for columns_item_data in self.columns:
                columns_item = columns_item_data.value
                columns.append(columns_item)

        filters: dict[str, Any] | Unset = UNSET
        if not isinstance(self.filters, Unset):
            filters = self.filters.to_dict()

        name = self.name

        shared = self.shared

        sort: str | Unset = UNSET
        if not isinstance(self.sort, Unset):
            sort = self.sort.value

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if columns is not UNSET:
            field_dict["columns"] = columns
        if filters is not UNSET:
            field_dict["filters"] = filters
        if name is not UNSET:
            field_dict["name"] = name
        if shared is not UNSET:
            field_dict["shared"] = shared
        if sort is not UNSET:
            field_dict["sort"] = sort

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.saved_view_patch_filters import SavedViewPatchFilters

        d = dict(src_dict)
        _columns = d.pop("columns", UNSET)
        columns: list[SavedViewPatchColumnsItem] | Unset = UNSET
        if _columns is not UNSET:
            columns = []
            for columns_item_data in _columns:
                columns_item = SavedViewPatchColumnsItem(columns_item_data)

                columns.append(columns_item)

        _filters = d.pop("filters", UNSET)
        filters: SavedViewPatchFilters | Unset
        if isinstance(_filters, Unset):
            filters = UNSET
        else:
            filters = SavedViewPatchFilters.from_dict(_filters)

        name = d.pop("name", UNSET)

        shared = d.pop("shared", UNSET)

        _sort = d.pop("sort", UNSET)
        sort: SavedViewPatchSort | Unset
        if isinstance(_sort, Unset):
            sort = UNSET
        else:
            sort = SavedViewPatchSort(_sort)

        saved_view_patch = cls(
            columns=columns,
            filters=filters,
            name=name,
            shared=shared,
            sort=sort,
        )

        return saved_view_patch

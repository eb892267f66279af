from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.saved_view_create_columns_item import SavedViewCreateColumnsItem
from ..models.saved_view_create_sort import SavedViewCreateSort
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.saved_view_create_filters import SavedViewCreateFilters


T = TypeVar("T", bound="SavedViewCreate")


@_attrs_define
class SavedViewCreate:
    """POST /saved-views.

    Attributes:
        name (str):
        columns (list[SavedViewCreateColumnsItem] | Unset): The portal's columns, in order: title, status, tags, type,
            size, source, created, modified, filename.
        filters (SavedViewCreateFilters | Unset): The documents list's query parameters (GET /documents), as an object:
            `{"tag": ["finance"], "status": ["active"], "metadata.quarter": "Q3"}`. Checked as the list checks them (an
            unknown parameter or a bad value is a 422 naming `filters.<param>`); `sort`, `limit` and `cursor` are not
            filters.
        shared (bool | Unset): Every person and key of the tenant sees it. Default: False.
        sort (SavedViewCreateSort | Unset): One of the list's sort orders. Default: SavedViewCreateSort.VALUE_1.
    """

    name: str
    columns: list[SavedViewCreateColumnsItem] | Unset = UNSET
    filters: SavedViewCreateFilters | Unset = UNSET
    shared: bool | Unset = False
    sort: SavedViewCreateSort | Unset = SavedViewCreateSort.VALUE_1

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        columns: list[str] | Unset = UNSET
        if not isinstance(self.columns, Unset):
            columns = []
            for columns_item_data in self.columns:
                columns_item = columns_item_data.value
                columns.append(columns_item)

        filters: dict[str, Any] | Unset = UNSET
        if not isinstance(self.filters, Unset):
            filters = self.filters.to_dict()

        shared = self.shared

        sort: str | Unset = UNSET
        if not isinstance(self.sort, Unset):
            sort = self.sort.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
            }
        )
        if columns is not UNSET:
            field_dict["columns"] = columns
        if filters is not UNSET:
            field_dict["filters"] = filters
        if shared is not UNSET:
            field_dict["shared"] = shared
        if sort is not UNSET:
            field_dict["sort"] = sort

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.saved_view_create_filters import SavedViewCreateFilters

        d = dict(src_dict)
        name = d.pop("name")

        _columns = d.pop("columns", UNSET)
        columns: list[SavedViewCreateColumnsItem] | Unset = UNSET
        if _columns is not UNSET:
            columns = []
            for columns_item_data in _columns:
                columns_item = SavedViewCreateColumnsItem(columns_item_data)

                columns.append(columns_item)

        _filters = d.pop("filters", UNSET)
        filters: SavedViewCreateFilters | Unset
        if isinstance(_filters, Unset):
            filters = UNSET
        else:
            filters = SavedViewCreateFilters.from_dict(_filters)

        shared = d.pop("shared", UNSET)

        _sort = d.pop("sort", UNSET)
        sort: SavedViewCreateSort | Unset
        if isinstance(_sort, Unset):
            sort = UNSET
        else:
            sort = SavedViewCreateSort(_sort)

        saved_view_create = cls(
            name=name,
            columns=columns,
            filters=filters,
            shared=shared,
            sort=sort,
        )

        return saved_view_create

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.saved_view_filters import SavedViewFilters
    from ..models.saved_view_owner import SavedViewOwner


T = TypeVar("T", bound="SavedView")


@_attrs_define
class SavedView:
    """
    Attributes:
        columns (list[str]):
        created_at (datetime.datetime):
        filters (SavedViewFilters): The list's query parameters, normalised.
        id (str):
        name (str):
        owner (SavedViewOwner):
        shared (bool):
        sort (str):
        updated_at (datetime.datetime):
    """

    columns: list[str]
    created_at: datetime.datetime
    filters: SavedViewFilters
    id: str
    name: str
    owner: SavedViewOwner
    shared: bool
    sort: str
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        columns = self.columns

        created_at = self.created_at.isoformat()

        filters = self.filters.to_dict()

        id = self.id

        name = self.name

        owner = self.owner.to_dict()

        shared = self.shared

        sort = self.sort

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "columns": columns,
                "createdAt": created_at,
                "filters": filters,
                "id": id,
                "name": name,
                "owner": owner,
                "shared": shared,
                "sort": sort,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.saved_view_filters import SavedViewFilters
        from ..models.saved_view_owner import SavedViewOwner

        d = dict(src_dict)
        columns = cast(list[str], d.pop("columns"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        filters = SavedViewFilters.from_dict(d.pop("filters"))

        id = d.pop("id")

        name = d.pop("name")

        owner = SavedViewOwner.from_dict(d.pop("owner"))

        shared = d.pop("shared")

        sort = d.pop("sort")

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        saved_view = cls(
            columns=columns,
            created_at=created_at,
            filters=filters,
            id=id,
            name=name,
            owner=owner,
            shared=shared,
            sort=sort,
            updated_at=updated_at,
        )

        saved_view.additional_properties = d
        return saved_view

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

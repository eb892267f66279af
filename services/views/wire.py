"""A saved view as it goes over the wire, both ways (CONTRACT §10; camelCase): the bodies it
is saved and changed with, the list's query, and the view answered and carried by the
saved_view.* events. `filters` is checked by services/views/params.py, with the documents
list's own validation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator
from pydantic.alias_generators import to_camel

from models.views import SavedView
from services.core.wire import PageQuery, Timestamp, Wire, absent, reject_null
from services.documents.filters import DEFAULT_SORT, SortOrder

# The columns a view may show in the portal's Documents list, in the order offered.
COLUMNS = ("title", "status", "tags", "type", "size", "source", "created", "modified", "filename")
DEFAULT_COLUMNS = ["title", "status", "tags", "type", "size", "modified"]
Column = Literal[
    "title", "status", "tags", "type", "size", "source", "created", "modified", "filename"
]
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100)]
# A view's filters: the list's query parameters, each a string or, for the repeatable ones
# (status, tag, source), a list of strings; services/views/params.py checks the values.
Filters = dict[str, Any]

_FILTERS_DOC = (
    "The documents list's query parameters (GET /documents), as an object: "
    '`{"tag": ["finance"], "status": ["active"], "metadata.quarter": "Q3"}`. Checked '
    "as the list checks them (an unknown parameter or a bad value is a 422 naming "
    "`filters.<param>`); `sort`, `limit` and `cursor` are not filters."
)


def _unique_columns(columns: list[str]) -> list[str]:
    if not columns:
        raise ValueError("show at least one column")
    return list(dict.fromkeys(columns))


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", alias_generator=to_camel, populate_by_name=True)


class SavedViewCreate(_Body):
    """POST /saved-views."""

    name: Name
    filters: Filters = Field(default_factory=dict, description=_FILTERS_DOC)
    sort: SortOrder = Field(DEFAULT_SORT, description="One of the list's sort orders.")
    columns: list[Column] = Field(
        default_factory=lambda: list(DEFAULT_COLUMNS),
        max_length=len(COLUMNS),
        description="The portal's columns, in order: " + ", ".join(COLUMNS) + ".",
    )
    shared: bool = Field(False, description="Every person and key of the tenant sees it.")

    _columns = field_validator("columns")(_unique_columns)


class SavedViewPatch(_Body):
    """PATCH /saved-views/{id}: every field optional, none null; `filters` replaces."""

    name: Name = absent()
    filters: Filters = absent()
    sort: SortOrder = absent()
    columns: list[Column] = absent()
    shared: bool = absent()

    @field_validator("columns")
    @classmethod
    def _columns(cls, value: list[str] | None) -> list[str] | None:
        return None if value is None else _unique_columns(value)

    @field_validator("name", "filters", "sort", "columns", "shared", mode="before")
    @classmethod
    def _not_null(cls, value: Any) -> Any:
        return reject_null(value)


class SavedViewListQuery(PageQuery):
    """GET /saved-views: the caller's own views and the tenant's shared ones, oldest first."""


# --- responses ---------------------------------------------------------------------------------


class SavedViewOwnerOut(Wire):
    type: Literal["user", "api_key"] = Field(description="A person, or an API key.")
    id: str = Field(description="usr_… or key_….")


class SavedViewOut(Wire):
    id: str
    name: str
    filters: dict[str, Any] = Field(description="The list's query parameters, normalised.")
    sort: str
    columns: list[str]
    shared: bool
    owner: SavedViewOwnerOut
    created_at: Timestamp
    updated_at: Timestamp


def views_data(rows: Sequence[SavedView]) -> list[dict[str, Any]]:
    return [
        SavedViewOut.model_validate(
            {
                "id": v.id,
                "name": v.name,
                "filters": v.filters,
                "sort": v.sort,
                "columns": list(v.columns),
                "shared": v.shared,
                "owner": {"type": v.owner_type, "id": v.owner_id},
                "created_at": v.created_at,
                "updated_at": v.updated_at,
            }
        ).model_dump(mode="json", by_alias=True)
        for v in rows
    ]


def view_data(view: SavedView) -> dict[str, Any]:
    return views_data([view])[0]

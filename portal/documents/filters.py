"""The Documents page's filter form: reads the query string into the services' own
`DocumentFilters` (the API's list filters), with errors beside the fields, and gives back the
parameters that rebuild the same view in links (next page, trash, clear)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

from flask import Request
from pydantic import ValidationError
from pydantic.alias_generators import to_camel

from models.documents import DocumentStatus
from services.documents.filters import DEFAULT_SORT, DocumentFilters
from services.search.query_syntax import MAX_QUERY_CHARS

# What the status select offers; "" is the API's default (everything but the trash).
STATUS_CHOICES = [
    ("", "Active and archived"),
    ("active", "Active"),
    ("archived", "Archived"),
    ("deleted", "Trash"),
]
TYPE_CHOICES = [
    ("", "Any type"),
    ("application/pdf", "PDF"),
    ("image/*", "Images"),
    ("text/*", "Text"),
    ("application/vnd.openxmlformats-officedocument.wordprocessingml.document", "Word (DOCX)"),
]
SOURCE_CHOICES = [
    ("", "Any source"),
    ("api", "API"),
    ("portal", "Portal"),
    ("form", "Form"),
    ("import", "Import"),
    ("mail", "Mail"),
    ("folder", "Folder"),
]
SORT_CHOICES = [
    ("-createdAt", "Newest first"),
    ("createdAt", "Oldest first"),
    ("-updatedAt", "Recently changed"),
    ("updatedAt", "Least recently changed"),
    ("title", "Title A-Z"),
    ("-title", "Title Z-A"),
]
# Form field -> (filter field, end of day?): the page asks for UTC days, both ends inclusive,
# and the filters' ranges are half-open instants, so "to" means before the next midnight.
DATE_FIELDS = {
    "created_from": ("created_after", False),
    "created_to": ("created_before", True),
    "updated_from": ("updated_after", False),
    "updated_to": ("updated_before", True),
}
# `saved`: the saved view applied (portal/views.py), whose columns the results show.
TEXT_FIELDS = (
    "q",
    "title",
    "tag",
    "type",
    "status",
    "source",
    "sort",
    "view",
    "saved",
    *DATE_FIELDS,
)
# How the results are shown: a table (the default) or a grid of thumbnails ("grid").
VIEWS = ("", "grid")
# Where a DocumentFilters error is shown on the form.
_FORM_FIELD = {
    "status": "status",
    "tag": "tag",
    "content_type": "type",
    "source": "source",
    "title": "title",
    "sort": "sort",
    **{target: name for name, (target, _) in DATE_FIELDS.items()},
}
_BY_ALIAS = {to_camel(name): name for name in DocumentFilters.model_fields}


@dataclass
class BrowseForm:
    """The form as typed (re-rendered as is) and what it means for the services."""

    values: dict[str, str]
    filters: DocumentFilters
    errors: dict[str, list[str]] = field(default_factory=dict)

    @property
    def q(self) -> str:
        return self.values["q"].strip()

    @property
    def trash(self) -> bool:
        return self.values["status"] == DocumentStatus.DELETED.value

    @property
    def grid(self) -> bool:
        return self.values["view"] == "grid"

    @property
    def active(self) -> bool:
        """Whether any filter but the defaults is asked for (the view is no filter)."""
        return any(v for k, v in self.values.items() if k not in ("sort", "view", "saved")) or (
            self.values["sort"] not in ("", DEFAULT_SORT)
        )

    def params(self, **overrides: Any) -> dict[str, str]:
        """Query parameters for a link to this view (empty values left out)."""
        merged = {**self.values, **overrides}
        return {k: v for k, v in merged.items() if v}


def _day(value: str, end: bool) -> datetime:
    day = date.fromisoformat(value)
    start = datetime(day.year, day.month, day.day, tzinfo=UTC)
    return start + timedelta(days=1) if end else start


def read_form(request: Request, extra: dict[str, Any] | None = None) -> BrowseForm:
    """The filters in `request.args`; a bad field is reported and left out, never a 500.
    `extra`: list parameters the form has no field for (a saved view's), under the form's."""
    values = {name: (request.args.get(name) or "")[:600] for name in TEXT_FIELDS}
    errors: dict[str, list[str]] = {}
    if values["view"] not in VIEWS:
        values["view"] = ""
    if len(values["q"].strip()) > MAX_QUERY_CHARS:
        errors["q"] = [f"Search for at most {MAX_QUERY_CHARS} characters."]
        values["q"] = values["q"].strip()[:MAX_QUERY_CHARS]
    raw: dict[str, Any] = {_BY_ALIAS.get(k, k): v for k, v in (extra or {}).items()}
    if values["status"]:
        raw["status"] = [values["status"]]
    tags = [t.strip() for t in values["tag"].split(",") if t.strip()]
    if tags:
        raw["tag"] = tags
    if values["source"]:
        raw["source"] = [values["source"]]
    if values["type"]:
        raw["content_type"] = values["type"].strip()
    if values["title"].strip():
        raw["title"] = values["title"].strip()
    if values["sort"]:
        raw["sort"] = values["sort"]
    for name, (target, end) in DATE_FIELDS.items():
        if values[name]:
            try:
                raw[target] = _day(values[name], end)
            except ValueError:
                errors[name] = ["Give a date as YYYY-MM-DD."]
    try:
        filters = DocumentFilters.model_validate(raw)
    except ValidationError as error:
        for problem in error.errors():
            loc = str(problem["loc"][0]) if problem["loc"] else ""
            target = _BY_ALIAS.get(loc, loc)
            name = _FORM_FIELD.get(target, "q")
            errors.setdefault(name, []).append(problem["msg"].removeprefix("Value error, "))
            raw.pop(target, None)
        try:
            filters = DocumentFilters.model_validate(raw)
        except ValidationError:
            filters = DocumentFilters()
    return BrowseForm(values, filters, errors)

"""The Documents page's filter form: reads the query string into the services' own
`DocumentFilters` (the API's list filters) and a `customFieldQuery` (one condition on a
custom field: field, op, value, as the API's list takes it), with errors beside the fields,
and gives back the parameters that rebuild the same view in links (next page, trash, clear)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

from flask import Request
from pydantic import ValidationError
from pydantic.alias_generators import to_camel

from errors import DomainError
from models.customfields import CustomField, CustomFieldType
from models.documents import DocumentStatus
from portal.access import portal_tenant
from services.customfields import fields as custom_fields
from services.customfields import query as custom_field_query
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
    "cf_field",
    "cf_op",
    "cf_value",
    "cf_to",
)
# What the custom field filter's op select says for each op.
OPERATOR_LABELS = {
    "exact": "is",
    "icontains": "contains",
    "gt": "is more than (after)",
    "gte": "is at least (from)",
    "lt": "is less than (before)",
    "lte": "is at most (until)",
    "range": "is between",
    "in": "is one of (comma-separated)",
    "exists": "has a value",
    "isnull": "has no value",
}
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
    # The list's customFieldQuery (a saved view's and the form's, both when both are given).
    custom_field_query: str | None = None

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
    if not values["cf_field"]:  # an op or value without a field means nothing
        values.update(cf_op="", cf_value="", cf_to="")
    if len(values["q"].strip()) > MAX_QUERY_CHARS:
        errors["q"] = [f"Search for at most {MAX_QUERY_CHARS} characters."]
        values["q"] = values["q"].strip()[:MAX_QUERY_CHARS]
    raw: dict[str, Any] = {_BY_ALIAS.get(k, k): v for k, v in (extra or {}).items()}
    view_query = raw.pop("customFieldQuery", None)
    own_query = _custom_field_query(values, errors)
    queries = [q for q in (view_query, own_query) if isinstance(q, str) and q]
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
    combined = queries[0] if len(queries) == 1 else None
    if len(queries) == 2:
        combined = json.dumps(["AND", [json.loads(q) for q in queries]])
    return BrowseForm(values, filters, errors, combined)


def _custom_field_query(values: dict[str, str], errors: dict[str, list[str]]) -> str | None:
    """The form's custom field condition as a customFieldQuery `[fieldId, op, value]`, or
    None (no field chosen, or an error, reported under `cf`)."""
    field_id = values["cf_field"].strip()
    if not field_id:
        return None
    try:
        chosen = custom_fields.get_field(portal_tenant().id, field_id[:40])
    except DomainError:
        errors["cf"] = ["That custom field no longer exists; choose another."]
        return None
    op = values["cf_op"] or "exact"
    if op not in custom_field_query.operators_for(chosen.data_type):
        errors["cf"] = [f"“{OPERATOR_LABELS.get(op, op)}” does not apply to {chosen.name}."]
        return None
    text, to = values["cf_value"].strip(), values["cf_to"].strip()
    if op not in ("exists", "isnull") and not text:
        return None  # a field picked and no value yet: no condition, and nothing wrong
    try:
        value = _operand(chosen, op, text, to)
    except ValueError as problem:
        errors["cf"] = [f"{chosen.name}: {problem}"]
        return None
    return json.dumps([chosen.id, op, value])


def _operand(chosen: CustomField, op: str, text: str, to: str) -> Any:
    """The value of the condition in the JSON type the field's data type takes."""
    if op in ("exists", "isnull"):
        return True
    if op == "range":
        if not to:
            raise ValueError("give both ends of the range.")
        return [_scalar(chosen, text), _scalar(chosen, to)]
    if op == "in":
        items = [item.strip() for item in text.split(",") if item.strip()]
        if not items:
            raise ValueError("give one or more values, separated by commas.")
        return [_scalar(chosen, item) for item in items]
    return _scalar(chosen, text)


def _scalar(chosen: CustomField, text: str) -> Any:
    kind = CustomFieldType(chosen.data_type)
    if kind is CustomFieldType.INTEGER:
        try:
            return int(text)
        except ValueError:
            raise ValueError(f"“{text}” is not a whole number.") from None
    if kind is CustomFieldType.NUMBER:
        try:
            return float(text)
        except ValueError:
            raise ValueError(f"“{text}” is not a number.") from None
    if kind is CustomFieldType.BOOLEAN:
        answer = {"yes": True, "true": True, "no": False, "false": False}.get(text.lower())
        if answer is None:
            raise ValueError("answer yes or no.")
        return answer
    if kind is CustomFieldType.SELECT:
        for option in chosen.options:
            if (
                text in (option["id"], option["label"])
                or text.casefold() == option["label"].casefold()
            ):
                return option["id"]
        raise ValueError(f"“{text}” is not one of its options.")
    return text  # string, date (YYYY-MM-DD), monetary amount, document id: the query checks


def field_choices(tenant_id: str) -> list[dict[str, Any]]:
    """The tenant's custom fields with the ops each takes, for the filter's selects."""
    return [
        {
            "id": f.id,
            "name": f.name,
            "type": f.data_type,
            "ops": custom_field_query.operators_for(f.data_type),
            "options": [o["label"] for o in f.options or []],
        }
        for f in custom_fields.all_fields(tenant_id)
    ]

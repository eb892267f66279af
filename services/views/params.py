"""A saved view's `filters`, checked with the documents list's own validation: the object is
read as the list reads its query string (repeatable parameters as lists or comma lists, the
others once), then validated by `DocumentFilters`, the model GET /documents validates with.
What is stored is the normalised result, and it is checked again each time the view is
applied, so a view saved before a parameter changed meaning answers a clear 400, not a 500."""

from __future__ import annotations

import typing
from datetime import datetime
from typing import Any

from pydantic import ValidationError
from pydantic.alias_generators import to_camel

from errors import DomainError, FieldError
from services.customfields import query as custom_field_query
from services.documents.filters import METADATA_PREFIX, DocumentFilters
from services.documents.wire import MAX_CUSTOM_FIELD_QUERY

# The list's filter that DocumentFilters does not hold: checked for shape here, for its
# fields (the tenant's) each time the list compiles it.
CUSTOM_FIELD_QUERY = "customFieldQuery"
# The list's parameters that are not filters: the view's own `sort`, and the page's.
NOT_FILTERS = {"sort": "give the order as the view's `sort`", "limit": "", "cursor": ""}
MAX_FILTERS = 30

_ALIASES = {(f.alias or to_camel(n)): n for n, f in DocumentFilters.model_fields.items()}
_ALIASES |= {n: n for n in DocumentFilters.model_fields}


def _is_list(name: str) -> bool:
    annotation = DocumentFilters.model_fields[name].annotation
    if typing.get_origin(annotation) is list:
        return True
    return any(typing.get_origin(a) is list for a in typing.get_args(annotation))


def _text(value: Any) -> str | None:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (str, int, float)):
        return str(value)
    return None


def _as_query(filters: dict[str, Any]) -> tuple[dict[str, Any], list[FieldError]]:
    """The object as the list's query parser would hand it to DocumentFilters."""
    raw: dict[str, Any] = {}
    errors: list[FieldError] = []
    for key, value in filters.items():
        field = f"filters.{key}"
        if key == CUSTOM_FIELD_QUERY:
            problem = _custom_field_query_problem(value)
            if problem:
                errors.append(FieldError("VALIDATION_ERROR", f"{field}: {problem}", field))
            continue
        name = _ALIASES.get(key)
        if key in NOT_FILTERS or key == "savedView":
            why = NOT_FILTERS.get(key) or "it is not a filter"
            errors.append(FieldError("VALIDATION_ERROR", f"{field}: {why}.", field))
            continue
        if name is None and not key.startswith(METADATA_PREFIX):
            message = f"{field}: not a parameter of the documents list."
            errors.append(FieldError("VALIDATION_ERROR", message, field))
            continue
        values = value if isinstance(value, list) else [value]
        texts = [_text(v) for v in values]
        if any(t is None for t in texts) or not texts:
            message = f"{field}: give a string, or a list of strings for a repeatable one."
            errors.append(FieldError("VALIDATION_ERROR", message, field))
        elif name is not None and _is_list(name):
            raw[key] = [part for t in texts for part in t.split(",") if part != ""]  # type: ignore[union-attr]
        elif len(texts) > 1:
            errors.append(FieldError("VALIDATION_ERROR", f"{field}: give it once.", field))
        else:
            raw[key] = texts[0]
    return raw, errors


def _custom_field_query_problem(value: Any) -> str | None:
    """Why a view's customFieldQuery cannot be the list's, or None."""
    if not isinstance(value, str) or not 1 <= len(value) <= MAX_CUSTOM_FIELD_QUERY:
        return f"give the query as a string of 1 to {MAX_CUSTOM_FIELD_QUERY} characters."
    try:
        custom_field_query.parse(value)
    except DomainError as error:
        return error.message.removeprefix(f"{CUSTOM_FIELD_QUERY}: ")
    return None


def check_filters(filters: dict[str, Any]) -> tuple[dict[str, Any], list[FieldError]]:
    """The filters normalised (as stored and answered) and the errors, each naming
    `filters.<param>`; the errors are empty when the filters are good."""
    if len(filters) > MAX_FILTERS:
        message = f"filters: at most {MAX_FILTERS} parameters."
        return {}, [FieldError("VALIDATION_ERROR", message, "filters")]
    raw, errors = _as_query(filters)
    try:
        parsed = DocumentFilters.model_validate(raw)
    except ValidationError as exc:
        for error in exc.errors():
            loc = [str(p) for p in error.get("loc", ())]
            field = "filters." + (loc[0] if loc else "")
            if error["type"] == "extra_forbidden":
                message = f"{field}: not a parameter of the documents list."
            else:
                message = f"{field}: {error['msg']}"
            errors.append(FieldError("VALIDATION_ERROR", message, field))
    if errors:
        return {}, errors
    checked = normalised(parsed)
    if CUSTOM_FIELD_QUERY in filters:
        checked[CUSTOM_FIELD_QUERY] = filters[CUSTOM_FIELD_QUERY]
    return checked, []


def normalised(filters: DocumentFilters) -> dict[str, Any]:
    """The filters that differ from the list's defaults, as query parameters: camelCase
    names, `metadata.<key>` pairs, RFC 3339 instants, the list's order (sort aside)."""
    out: dict[str, Any] = {}
    defaults = DocumentFilters()
    for name, info in DocumentFilters.model_fields.items():
        value = getattr(filters, name)
        if name == "sort" or value == getattr(defaults, name):
            continue
        if name == "metadata":
            out |= {f"{METADATA_PREFIX}{k}": v for k, v in sorted(value.items())}
            continue
        alias = info.alias or to_camel(name)
        if isinstance(value, datetime):
            out[alias] = value.isoformat().replace("+00:00", "Z")
        elif isinstance(value, list):
            out[alias] = [getattr(v, "value", v) for v in value]
        else:
            out[alias] = getattr(value, "value", value)
    return out

"""A form's schema as HTML form fields, and an HTML form's strings back as typed data: what
the public page and the portal's live preview render (one template macro draws both), and
how a browser's POST becomes the JSON a submission validates."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from errors import FieldError
from services.forms import schemas

INPUT_PREFIX = "f."  # inputs are named f.<property>: no clash with csrf_token or the honeypot
HONEYPOT = "website"  # hidden from people; bots fill it in
TEXTAREA_AT = 500  # strings allowed this long or longer get a textarea


@dataclass
class HtmlField:
    name: str  # the property
    label: str
    kind: str  # text, textarea, email, number, integer, date, datetime, checkbox, select,
    # checkboxes, file, json
    required: bool
    help: str | None = None
    options: list[Any] = field(default_factory=list)
    attrs: dict[str, Any] = field(default_factory=dict)  # min, max, minlength, maxlength

    @property
    def input_name(self) -> str:
        return INPUT_PREFIX + self.name

    @property
    def input_id(self) -> str:
        return "field-" + "".join(c if c.isalnum() else "-" for c in self.name)


def _kind(sub: dict) -> str:
    kind = sub.get("type")
    if schemas.is_file_field(sub):
        return "file"
    if "enum" in sub and kind in ("string", "integer", "number", None):
        return "select"
    items = sub.get("items") if isinstance(sub.get("items"), dict) else {}
    if kind == "array" and "enum" in items:
        return "checkboxes"
    if kind == "boolean":
        return "checkbox"
    if kind in ("integer", "number"):
        return kind if kind == "integer" else "number"
    if kind == "string":
        fmt = sub.get("format")
        if fmt in ("date", "email"):
            return fmt
        if fmt == "date-time":
            return "datetime"
        return "textarea" if sub.get("maxLength", 0) >= TEXTAREA_AT else "text"
    return "json"


def fields_of(schema: dict) -> list[HtmlField]:
    """One HtmlField per top-level property, in the schema's order."""
    required = set(schema.get("required") or [])
    out = []
    for name, sub in (schema.get("properties") or {}).items():
        sub = sub if isinstance(sub, dict) else {}
        kind = _kind(sub)
        items = sub.get("items") if isinstance(sub.get("items"), dict) else {}
        options = list(sub.get("enum") or items.get("enum") or [])
        attrs = {
            html: sub[key]
            for key, html in (
                ("minimum", "min"),
                ("maximum", "max"),
                ("minLength", "minlength"),
                ("maxLength", "maxlength"),
            )
            if isinstance(sub.get(key), int | float) and not isinstance(sub.get(key), bool)
        }
        out.append(
            HtmlField(
                name=name,
                label=str(sub.get("title") or name),
                kind=kind,
                required=name in required,
                help=sub.get("description") if isinstance(sub.get("description"), str) else None,
                options=options,
                attrs=attrs,
            )
        )
    return out


def _typed(item: HtmlField, values: list[str]) -> tuple[Any, str | None]:
    """(value, problem): the field's strings as the JSON value its schema expects."""
    value = values[0].strip() if values else ""
    if item.kind == "checkbox":
        return bool(values), None
    if item.kind == "checkboxes":
        by_text = {str(o): o for o in item.options}
        return [by_text[v] for v in values if v in by_text], None
    if item.kind == "select":
        by_text = {str(o): o for o in item.options}
        return (by_text[value], None) if value in by_text else (value, None)
    if item.kind == "integer":
        try:
            return int(value), None
        except ValueError:
            return None, "Enter a whole number."
    if item.kind == "number":
        try:
            number = float(value)
        except ValueError:
            return None, "Enter a number."
        return (int(number) if number.is_integer() and "." not in value else number), None
    if item.kind == "datetime":  # datetime-local has no zone: the page says times are UTC
        return (value + ":00Z" if len(value) == 16 else value), None
    if item.kind == "json":
        try:
            return json.loads(value), None
        except ValueError:
            return None, "Enter valid JSON."
    return value, None


def data_from_form(
    schema: dict, form: Mapping[str, list[str]]
) -> tuple[dict[str, Any], list[FieldError]]:
    """The data of a posted HTML form (file fields aside) and the fields that could not be
    read (a number that is not one). An empty input leaves its property out, so `required`
    speaks for it."""
    data: dict[str, Any] = {}
    errors: list[FieldError] = []
    for item in fields_of(schema):
        if item.kind == "file":
            continue
        values = [v for v in form.get(item.input_name, []) if v != ""]
        if not values and item.kind not in ("checkbox", "checkboxes"):
            continue
        if item.kind == "checkboxes" and not values and not item.required:
            continue
        value, problem = _typed(item, values)
        if problem:
            errors.append(FieldError("VALIDATION_ERROR", problem, f"/{item.name}"))
        else:
            data[item.name] = value
    return data, errors


def display_value(value: Any) -> str:
    """A submitted value as text in the form again (re-rendered with its errors)."""
    if value is None:
        return ""
    if isinstance(value, dict | list):
        return json.dumps(value)
    return str(value)


def errors_by_field(errors: list[FieldError]) -> dict[str, list[str]]:
    """Error messages keyed by property name (top-level pointer); the rest under "form"."""
    grouped: dict[str, list[str]] = {}
    for error in errors:
        pointer = error.field or ""
        name = pointer[1:].split("/", 1)[0].replace("~1", "/").replace("~0", "~")
        grouped.setdefault(name or "form", []).append(error.message)
    return grouped

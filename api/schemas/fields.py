"""Field conventions every request model shares."""

from __future__ import annotations

from typing import Any

from pydantic import Field


def absent() -> Any:
    """A PATCH field that may be left out but is never null: None only marks "not sent", and
    the schema shows no default (a default of null would invite clients to send one). Pair
    it with a `reject_null` before-validator."""
    return Field(default=None, json_schema_extra=lambda schema: schema.pop("default", None))


def reject_null(value: Any) -> Any:
    if value is None:
        raise ValueError("may not be null")
    return value

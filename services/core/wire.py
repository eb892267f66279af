"""What every wire shape shares: RFC 3339 timestamps (UTC, to the second; CONTRACT §1), the
base model of the answers, the field conventions of request bodies and the `limit` and `cursor`
query parameters of every list (CONTRACT §5).

`Wire` reads ORM rows by attribute and writes camelCase, so one pydantic model both produces a
resource's JSON and describes it in the OpenAPI document. The cursor itself is
services/core/cursors.py's, the keyset query services/core/paging.py's."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from pydantic import (
    AliasGenerator,
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    WithJsonSchema,
    field_validator,
)
from pydantic.alias_generators import to_camel

import clock

Timestamp = Annotated[
    datetime,
    PlainSerializer(clock.rfc3339, return_type=str),
    WithJsonSchema({"type": "string", "format": "date-time"}),
]


class Wire(BaseModel):
    model_config = ConfigDict(
        from_attributes=True, alias_generator=AliasGenerator(serialization_alias=to_camel)
    )


# --- requests ----------------------------------------------------------------------------------


def absent(**schema_extra: Any) -> Any:
    """A PATCH field that may be left out but is never null: None only marks "not sent", and
    the schema shows no default (a default of null would invite clients to send one). Pair
    it with a `reject_null` before-validator. `schema_extra` adds to the field's schema."""

    def document(schema: dict[str, Any]) -> None:
        schema.pop("default", None)
        schema.update(schema_extra)

    return Field(default=None, json_schema_extra=document)


def reject_null(value: Any) -> Any:
    if value is None:
        raise ValueError("may not be null")
    return value


def fits_json_answers(value: Any) -> Any:
    """Refuse integers beyond 64 bits anywhere in a free-form JSON value: stored, they could
    never be answered again (the response encoder, like most clients' parsers, stops at 64)."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
        elif isinstance(item, int) and not -(2**63) <= item < 2**64:
            raise ValueError("holds an integer beyond 64 bits")
    return value


DEFAULT_LIMIT = 50
MAX_LIMIT = 200


# What services/core/cursors.py signs (itsdangerous): payload, time and signature, base64url.
CURSOR_PATTERN = r"^\.?[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$"


class PageQuery(BaseModel):
    """limit and cursor, shared by every list endpoint's query model."""

    model_config = {"extra": "forbid"}

    limit: int = Field(
        DEFAULT_LIMIT, ge=1, le=2**31 - 1, description="Page size, 1-200 (larger is clamped)."
    )
    cursor: str | None = Field(
        None,
        max_length=2048,
        description="nextCursor of the last page, unchanged: it is signed, so any other "
        "value is 400 INVALID_CURSOR (and one over an hour old, CURSOR_EXPIRED).",
        # Documented only: the validator leaves the format to decode_cursor (INVALID_CURSOR).
        json_schema_extra={"pattern": CURSOR_PATTERN},
    )

    @field_validator("limit", mode="after")
    @classmethod
    def _clamp(cls, value: int) -> int:
        return min(value, MAX_LIMIT)

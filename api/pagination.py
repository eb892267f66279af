"""Keyset pagination with signed, expiring cursors bound to tenant, sort and filters (§5)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from flask import current_app
from itsdangerous import BadSignature, SignatureExpired, TimestampSigner, URLSafeTimedSerializer
from pydantic import BaseModel, Field, field_validator
from sqlalchemy import Select, and_, or_, tuple_
from sqlalchemy.sql import ColumnElement

import clock
from errors import DomainError

CURSOR_MAX_AGE = 3600  # spec 3 and 8.2: a cursor is valid for 1 hour
DEFAULT_LIMIT = 50
MAX_LIMIT = 200


class PageQuery(BaseModel):
    """limit and cursor, shared by every list endpoint's query model."""

    model_config = {"extra": "forbid"}

    limit: int = Field(DEFAULT_LIMIT, ge=1, description="Page size, 1-200 (larger is clamped).")
    cursor: str | None = Field(None, max_length=2048, description="nextCursor of the last page.")

    @field_validator("limit", mode="after")
    @classmethod
    def _clamp(cls, value: int) -> int:
        return min(value, MAX_LIMIT)


class _ClockSigner(TimestampSigner):
    def get_timestamp(self) -> int:  # the service clock, so tests can age cursors
        return int(clock.now().timestamp())


def _serializer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(
        current_app.config["SECRET_KEY"], salt="dms.cursor.v1", signer=_ClockSigner
    )


def binding_of(tenant_id: str, **params: Any) -> str:
    """A short digest of what a cursor is only valid for: tenant, sort and filters."""
    canonical = json.dumps([tenant_id, params], sort_keys=True, default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()[:24]


def encode_cursor(binding: str, position: Sequence[Any]) -> str:
    return _serializer().dumps({"b": binding, "p": list(position)})


def decode_cursor(token: str, binding: str) -> list[Any]:
    """The keyset position in `token`, or 400 INVALID_CURSOR / CURSOR_EXPIRED."""
    try:
        payload = _serializer().loads(token, max_age=CURSOR_MAX_AGE)
    except SignatureExpired:
        raise DomainError(
            400, "CURSOR_EXPIRED", "This cursor is more than an hour old; start again.", "cursor"
        ) from None
    except (BadSignature, ValueError, TypeError):
        raise DomainError(400, "INVALID_CURSOR", "This cursor is not valid.", "cursor") from None
    if not isinstance(payload, dict) or payload.get("b") != binding:
        raise DomainError(
            400,
            "INVALID_CURSOR",
            "This cursor belongs to another query (tenant, sort or filters differ).",
            "cursor",
        )
    position = payload.get("p")
    if not isinstance(position, list):
        raise DomainError(400, "INVALID_CURSOR", "This cursor is not valid.", "cursor")
    return position


def after_position(
    columns: Sequence[tuple[ColumnElement, bool]], position: Sequence[Any]
) -> ColumnElement[bool]:
    """WHERE clause for rows strictly after `position` in ORDER BY `columns` ((col, desc), ...).

    When every column sorts the same way a row-value comparison is used, which both
    PostgreSQL and SQLite can answer from a composite index.
    """
    directions = {desc for _, desc in columns}
    if len(directions) == 1:
        left = tuple_(*(c for c, _ in columns))
        right = tuple_(*position)
        return left < right if directions.pop() else left > right
    clauses = []
    for i, (column, desc) in enumerate(columns):
        equal_prefix = [c == v for (c, _), v in zip(columns[:i], position[:i], strict=True)]
        step = column < position[i] if desc else column > position[i]
        clauses.append(and_(*equal_prefix, step))
    return or_(*clauses)


def keyset_page(
    stmt: Select,
    columns: Sequence[tuple[ColumnElement, bool]],
    limit: int,
    position: Sequence[Any] | None,
    session,
) -> tuple[list[Any], bool]:
    """Fetch one page (limit + 1 rows to learn whether more exist)."""
    if position is not None:
        stmt = stmt.where(after_position(columns, position))
    stmt = stmt.order_by(*(c.desc() if desc else c.asc() for c, desc in columns)).limit(limit + 1)
    rows = list(session.scalars(stmt))
    return rows[:limit], len(rows) > limit

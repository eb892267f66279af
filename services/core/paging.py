"""Keyset pagination as a query concern (CONTRACT §5: never OFFSET): the rows strictly after
a position in an ORDER BY, one page at a time. Every list (documents, versions, and the
workflows, forms, entities, deliveries and notifications to come) pages through here; the
API only encodes and decodes the position as a signed cursor (services/core/cursors.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Select, and_, or_, tuple_
from sqlalchemy.sql import ColumnElement

from extensions import db

OrderBy = Sequence[tuple[ColumnElement, bool]]  # (column, descending) pairs


def after_position(columns: OrderBy, position: Sequence[Any]) -> ColumnElement[bool]:
    """WHERE clause for rows strictly after `position` in ORDER BY `columns`.

    When every column sorts the same way a row-value comparison is used, which both
    PostgreSQL and SQLite can answer from a composite index."""
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


def paged(stmt: Select, columns: OrderBy, limit: int, position: Sequence[Any] | None) -> Select:
    """`stmt` narrowed to the rows after `position`, ordered, limit + 1 of them (the extra
    row tells whether more follow)."""
    if position is not None:
        stmt = stmt.where(after_position(columns, position))
    return stmt.order_by(*(c.desc() if desc else c.asc() for c, desc in columns)).limit(limit + 1)


def keyset_page(
    stmt: Select, columns: OrderBy, limit: int, position: Sequence[Any] | None
) -> tuple[list[Any], bool]:
    """One page of `stmt` in `columns` order after `position`, and whether more rows follow
    (limit + 1 rows are fetched to learn it)."""
    rows = list(db.session.scalars(paged(stmt, columns, limit, position)))
    return rows[:limit], len(rows) > limit

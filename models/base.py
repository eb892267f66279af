"""Shared model pieces: prefixed time-sortable ids, UTC timestamps and the tenant-scoped mixin."""

from __future__ import annotations

import os
import threading
import time
from datetime import UTC, datetime
from typing import Self

from sqlalchemy import (
    ARRAY,
    BindParameter,
    ColumnElement,
    DateTime,
    ForeignKey,
    String,
    TypeDecorator,
    and_,
    any_,
    bindparam,
    literal_column,
    select,
)
from sqlalchemy.orm import Mapped, declared_attr, mapped_column

import clock
from errors import not_found
from extensions import db

_CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz"


_last_id = 0
_id_lock = threading.Lock()


def new_id(prefix: str) -> str:
    """`<prefix>_` + 26 chars: 48 bits of milliseconds then 80 random bits (ULID layout),
    so ids sort by creation time and keep B-tree inserts local. Monotonic within a process:
    ids made in the same millisecond (a batch's rows) sort in the order they were made."""
    global _last_id
    value = (int(time.time() * 1000) << 80) | int.from_bytes(os.urandom(10), "big")
    with _id_lock:
        if value >> 80 <= _last_id >> 80:
            value = _last_id + 1 + (int.from_bytes(os.urandom(2), "big") >> 1)
        _last_id = value
    chars = []
    for _ in range(26):
        value, rem = divmod(value, 32)
        chars.append(_CROCKFORD[rem])
    return f"{prefix}_{''.join(reversed(chars))}"


def id_column(prefix: str) -> Mapped[str]:
    return mapped_column(String(40), primary_key=True, default=lambda: new_id(prefix))


class UTCDateTime(TypeDecorator[datetime]):
    """Stores aware UTC datetimes; SQLite keeps no zone, so reads get UTC put back."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect) -> datetime | None:
        return None if value is None else as_utc(value)


def as_utc(value: datetime) -> datetime:
    """A datetime as the database driver gives it (naive UTC from SQLite, aware in the
    session's zone from PostgreSQL) as an aware UTC datetime."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def id_list(name: str, dialect: str) -> BindParameter:
    """A bind parameter for a list of ids, for one_of(). On PostgreSQL one text array, so the
    statement's text and its number of parameters stay the same whatever the list: an
    expanding IN is written out again on every run, and psycopg converts a statement of
    more than 50 parameters (or 4 kB) again each time, where it keeps the conversion of any
    other, so an IN of a page's ids costs about as much as the page's JSON. Elsewhere an
    expanding IN (SQLite has no arrays)."""
    if dialect == "postgresql":
        return bindparam(name, type_=ARRAY(String))
    return bindparam(name, type_=String, expanding=True)


def one_of(column, ids) -> ColumnElement[bool]:
    """`column IN ids`: `ids` an id_list() parameter, or values."""
    if isinstance(ids, BindParameter) and isinstance(ids.type, ARRAY):
        return column == any_(ids)
    return column.in_(ids)


def created_at_column() -> Mapped[datetime]:
    return mapped_column(UTCDateTime(), default=clock.now, nullable=False)


def in_tenant(model, tenant_id, dialect: str | None = None) -> ColumnElement[bool]:
    """`model.tenant_id = tenant_id`, checked on each row another condition finds (its id, a
    list of ids, its parent's id). On SQLite it is written `+tenant_id`, which the planner
    does not use to find rows: without statistics SQLite guesses ten rows per tenant and, for
    a page of ids, walks the tenant's index (all of its rows: 48 ms at 100,000)."""
    dialect = dialect or db.session.get_bind().dialect.name
    column = model.tenant_id
    if dialect == "sqlite":
        column = literal_column(f"+{model.__tablename__}.tenant_id", String)
    return column == tenant_id


class TenantScoped:
    """Mixin for every tenant-owned row: a tenant_id column and the only sanctioned loader."""

    __not_found_label__ = "Resource"

    @declared_attr
    def tenant_id(cls) -> Mapped[str]:
        return mapped_column(
            String(63), ForeignKey("tenants.id", ondelete="CASCADE"), index=True, nullable=False
        )

    @classmethod
    def get_for_tenant(cls, ident: str, tenant_id: str) -> Self:
        """The row with this id inside this tenant, or a 404 DomainError.

        Another tenant's id and a missing id are indistinguishable on purpose.
        """
        row = cls.find_for_tenant(ident, tenant_id)
        if row is None:
            raise not_found(cls.__not_found_label__)
        return row

    @classmethod
    def find_for_tenant(cls, ident: str, tenant_id: str) -> Self | None:
        """The row with this id inside this tenant, or None: for a caller that answers a
        missing row its own way (a field's validation error, a refusal)."""
        return db.session.scalar(
            select(cls).where(cls.id == ident, cls.tenant_id == tenant_id)  # type: ignore[attr-defined]
        )

    @classmethod
    def get_many_for_tenant(cls, ids: list[str], tenant_id: str) -> dict[str, Self]:
        """The rows with these ids inside this tenant, by id (another tenant's are left out)."""
        dialect = db.session.get_bind().dialect.name
        rows = db.session.scalars(select(cls).where(cls.found_in_tenant(ids, tenant_id, dialect)))
        return {row.id: row for row in rows}  # type: ignore[attr-defined]

    @classmethod
    def found_in_tenant(cls, ids, tenant_id, dialect: str | None = None) -> ColumnElement[bool]:
        """`id IN ids` inside the tenant (values, or an id_list() parameter), found by primary
        key; the tenant is checked on each row found (in_tenant)."""
        return and_(one_of(cls.id, ids), in_tenant(cls, tenant_id, dialect))  # type: ignore[attr-defined]

    @classmethod
    def query_for_tenant(cls, tenant_id: str):
        return select(cls).where(cls.tenant_id == tenant_id)

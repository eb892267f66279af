"""INSERT … ON CONFLICT for the database in use: PostgreSQL and SQLite both have it, with the
same SQLAlchemy API behind different dialect modules. Used where two writers may race to
create the same row (usage counters, once-a-day notices, folded notifications)."""

from __future__ import annotations

from sqlalchemy import Table
from sqlalchemy.dialects import postgresql, sqlite

from extensions import db


def insert(table: Table):
    """An INSERT for `table` that supports `.on_conflict_do_nothing()` and `…_do_update()`."""
    dialect = postgresql if db.engine.dialect.name == "postgresql" else sqlite
    return dialect.insert(table)

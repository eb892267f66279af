"""PostgreSQL: an engine of its own for the reads that are one statement, outside any
transaction (autocommit), with psycopg's prepared statements (docs/operations.md, "Database
connections").

The documents list is one SELECT. On the app's engine it would pay, per request, the switch
of a pooled connection to autocommit and back (its connections are transactional), and the
parsing and planning of a long statement, as that engine prepares nothing (config.py,
`engine_options`: in transactions, psycopg's prepared statements break under load). Here every
connection stays in autocommit, so a statement psycopg prepares (after PREPARE_THRESHOLD runs
on a connection) is never rolled back with a transaction, and later runs send only its
parameters: Python's statement building and most of the database's planning are saved on
every list request.

PgBouncer in transaction mode hands each statement to any server connection, so a prepared
statement must be tracked by PgBouncer itself (1.21+, `max_prepared_statements` > 0);
behind an older one set DMS_DB_PREPARED_READS=0. The engine shares the app's pool settings,
so a process holds at most twice its threads' connections, one of each kind per thread."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask, current_app
from sqlalchemy import Engine, Row, create_engine
from sqlalchemy.sql import Executable

from extensions import db
from services.core import db_ping

PREPARE_THRESHOLD = 2  # psycopg prepares a statement on its third run on a connection
_EXTENSION = "dms.read_engine"


def install(app: Flask) -> None:
    """Build the app's read engine on PostgreSQL (connecting to nothing yet)."""
    options = dict(app.config["SQLALCHEMY_ENGINE_OPTIONS"])
    with app.app_context():
        url = db.engine.url
    if url.get_backend_name() != "postgresql":
        return
    threshold = PREPARE_THRESHOLD if app.config["DMS_DB_PREPARED_READS"] else None
    options["connect_args"] = {**options.get("connect_args", {}), "prepare_threshold": threshold}
    engine = create_engine(url, isolation_level="AUTOCOMMIT", **options)
    if not options.get("pool_pre_ping"):
        db_ping.install(engine, app.config["DMS_DB_PING_IDLE_SECONDS"])
    app.extensions[_EXTENSION] = engine


def engine() -> Engine | None:
    """This app's read engine; None on SQLite."""
    return current_app.extensions.get(_EXTENSION)


def read_alone(statement: Executable, params: Mapping[str, Any]) -> list[Row]:
    """Run one read-only statement outside a transaction: it is its own snapshot, with no
    BEGIN before it nor ROLLBACK after it (two of the four round trips a list request would
    make in a transaction).
    On SQLite, in the session, as any other read."""
    read = engine()
    if read is None:
        return list(db.session.execute(statement, params).all())
    with read.connect() as connection:
        return list(connection.execute(statement, params).all())


def dispose(app: Flask) -> None:
    """Close the read engine's pooled connections (tests, before a fork)."""
    read = app.extensions.get(_EXTENSION)
    if read is not None:
        read.dispose()

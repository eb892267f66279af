"""services/core/db_ping.py: a pooled PostgreSQL connection that sat idle is checked before
use, and one the server dropped is replaced without the request seeing an error."""

from __future__ import annotations

import psycopg
import pytest
from sqlalchemy import text

from extensions import db


@pytest.fixture
def pg_app(make_app, database_url):
    if not database_url.startswith("postgres"):
        pytest.skip("PostgreSQL's connection pool")
    return make_app(DMS_DB_PING_IDLE_SECONDS=0)  # every checkout counts as after idling


def _backend_pid() -> int:
    pid = db.session.execute(text("SELECT pg_backend_pid()")).scalar_one()
    db.session.rollback()
    db.session.close()  # back to the pool
    return pid


def test_a_dropped_idle_connection_is_replaced_before_use(pg_app):
    with pg_app.app_context():
        dropped = _backend_pid()
        url = db.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        with psycopg.connect(url, autocommit=True) as outside:  # not from the pool
            outside.execute("SELECT pg_terminate_backend(%s)", (dropped,))
        fresh = _backend_pid()  # would raise OperationalError without the ping
        assert fresh != dropped


def test_a_connection_back_a_moment_ago_is_reused_unpinged(make_app, database_url):
    if not database_url.startswith("postgres"):
        pytest.skip("PostgreSQL's connection pool")
    app = make_app(DMS_DB_PING_IDLE_SECONDS=3600)
    with app.app_context():
        first = _backend_pid()
        assert _backend_pid() == first  # the same connection, straight from the pool

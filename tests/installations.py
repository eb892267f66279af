"""A second, fresh installation for tests that move a whole installation (backup and restore,
tenant archives): its own empty database (created on the server for PostgreSQL) and its own
blob directory. A plugin of the root conftest, so the operations and the storage tests share it."""

from __future__ import annotations

import uuid

import pytest
from sqlalchemy.engine import make_url

from tests.support import without_fsync


@pytest.fixture
def fresh_install(make_app, database_url, tmp_path):
    """factory() -> an app on a brand-new empty database and blob directory."""
    created: list[str] = []

    def factory(**overrides):
        name = f"fresh_{uuid.uuid4().hex[:10]}"
        if database_url.startswith("sqlite"):
            url = f"sqlite:///{tmp_path / (name + '.sqlite3')}"
        else:
            url = _create_pg_database(database_url, name)
            created.append(name)
        storage = str(tmp_path / name)
        return make_app(SQLALCHEMY_DATABASE_URI=url, DMS_STORAGE_DIR=storage, **overrides)

    yield factory
    for name in created:
        _drop_pg_database(database_url, name)


def _admin(database_url: str) -> str:
    url = make_url(database_url)
    return url.set(drivername="postgresql", database="postgres").render_as_string(False)


def _create_pg_database(database_url: str, name: str) -> str:
    import psycopg

    with psycopg.connect(_admin(database_url), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
        without_fsync(conn, name)
    return make_url(database_url).set(database=name).render_as_string(False)


def _drop_pg_database(database_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(_admin(database_url), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

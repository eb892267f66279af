"""A second, fresh installation for tests that move a whole installation (backup and restore,
tenant archives): its own empty database (created on the server for PostgreSQL) and its own
blob directory. A plugin of the root conftest, so the operations and the storage tests share it."""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Iterator
from contextlib import closing

import pytest
from sqlalchemy.engine import make_url

from tests.support import without_fsync


@pytest.fixture
def fresh_install(make_app, database_url, tmp_path, migrated_template):
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
        application = make_app(SQLALCHEMY_DATABASE_URI=url, DMS_STORAGE_DIR=storage, **overrides)
        application.extensions[_TEMPLATE] = migrated_template
        return application

    yield factory
    for name in created:
        _drop_pg_database(database_url, name)


_TEMPLATE = "tests.migrated_template"


@pytest.fixture(scope="session")
def migrated_template(base_config, database_url, tmp_path_factory) -> Iterator[MigratedTemplate]:
    template = MigratedTemplate(base_config, database_url, tmp_path_factory.mktemp("template"))
    yield template
    template.drop()


def migrate(app) -> None:
    """Bring a fresh installation's empty database to the latest migration: a copy of the
    database the real migrations made once per test process (`MigratedTemplate`), or the
    migrations themselves for an app that fresh_install did not make."""
    template = app.extensions.get(_TEMPLATE)
    if template is None:
        from flask_migrate import upgrade

        with app.app_context():
            upgrade()
        return
    template.copy_to(app)


class MigratedTemplate:
    """A database migrated by the real migrations (`flask db upgrade`), made on first use and
    copied into fresh installations' databases: SQLite's file with the backup API,
    PostgreSQL's database as a template of CREATE DATABASE. A migration costs a second or
    more; a copy, milliseconds."""

    def __init__(self, base_config: dict, database_url: str, directory) -> None:
        self.base_config = base_config
        self.database_url = database_url
        self.directory = directory
        self.url: str | None = None
        self.pg_name: str | None = None

    def _made(self) -> str:
        if self.url is None:
            from flask_migrate import upgrade

            from app import create_app
            from extensions import db
            from services.core import read_engine

            if self.database_url.startswith("sqlite"):
                url = f"sqlite:///{self.directory / 'template.sqlite3'}"
            else:
                self.pg_name = f"{make_url(self.database_url).database}_template"
                url = _create_pg_database(self.database_url, self.pg_name)
            application = create_app(
                {
                    **self.base_config,
                    "SQLALCHEMY_DATABASE_URI": url,
                    "DMS_STORAGE_DIR": str(self.directory / "storage"),
                }
            )
            with application.app_context():
                upgrade()
                db.engine.dispose()  # a template database takes no connections
            read_engine.dispose(application)
            self.url = url
        return self.url

    def copy_to(self, app) -> None:
        from extensions import db
        from services.core import read_engine

        template = self._made()
        with app.app_context():
            target = db.engine.url
            db.engine.dispose()
        read_engine.dispose(app)
        if target.get_backend_name() == "sqlite":
            source_path = make_url(template).database
            with (
                closing(sqlite3.connect(source_path)) as source,
                closing(sqlite3.connect(target.database)) as copy,
            ):
                source.backup(copy)
            return
        import psycopg

        with psycopg.connect(_admin(self.database_url), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{target.database}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{target.database}" TEMPLATE "{self.pg_name}"')
            without_fsync(conn, target.database)

    def drop(self) -> None:
        if self.pg_name is not None:
            _drop_pg_database(self.database_url, self.pg_name)


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

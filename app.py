"""Application factory: `create_app()` builds and wires the app; nothing runs at import time."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from flask import Flask


def create_app(config: Mapping[str, Any] | None = None, *, commands: bool = True) -> Flask:
    """Build the app from the environment (and `.env`), then apply `config` overrides.

    `commands=False` leaves out the operator CLI and Flask-Migrate (which imports Alembic,
    Mako and Pygments, about 12 MiB per process): web workers start from `wsgi.py` so."""
    from dotenv import load_dotenv

    load_dotenv(os.environ.get("DMS_ENV_FILE", ".env"))
    app = Flask(__name__, instance_relative_config=True)
    os.makedirs(app.instance_path, exist_ok=True)

    from config import Config, engine_options

    app.config.from_object(Config(app.instance_path))
    if config:
        app.config.update(config)
    app.config.setdefault(
        "SQLALCHEMY_ENGINE_OPTIONS", engine_options(app.config["SQLALCHEMY_DATABASE_URI"])
    )

    from extensions import csrf, db, login_manager, redis_store

    db.init_app(app)
    login_manager.init_app(app)
    csrf.init_app(app)
    redis_store.init_app(app)
    _configure_sqlite(app)

    import models  # noqa: F401  (registers every table on the metadata)
    import observability
    from api import register as register_api
    from api.errors import register_error_handlers
    from api.rate_limits import init_app as init_rate_limits
    from portal import register as register_portal
    from services import key_cache

    observability.init_app(app)
    key_cache.init_app(app)
    init_rate_limits(app)  # after observability: its metrics registry takes our counter
    register_error_handlers(app)
    register_api(app)
    register_portal(app)
    # The API authenticates with bearer credentials, not cookies: CSRF does not apply.
    # Flask-WTF takes a string as a view's dotted path: pass the blueprint objects.
    csrf.exempt(app.blueprints["api"])
    csrf.exempt(app.blueprints["internal"])

    if commands:
        _register_commands(app)
    return app


def _register_commands(app: Flask) -> None:
    from flask_migrate import Migrate

    from cli import register_commands
    from extensions import db

    migrations = os.path.join(os.path.dirname(os.path.abspath(__file__)), "migrations")
    # Batch mode lets Alembic alter tables on SQLite too, so one history serves both.
    Migrate(app, db, directory=migrations, render_as_batch=True)
    register_commands(app)


def _configure_sqlite(app: Flask) -> None:
    """WAL (readers never block the writer), foreign keys on, and BEGIN IMMEDIATE before the
    first write of a transaction, so concurrent writers queue on the busy timeout instead of
    failing when one's snapshot went stale. Reads before the first write take no lock."""
    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        return
    from sqlalchemy import event

    from extensions import db

    with app.app_context():
        engine = db.engine

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record) -> None:
        dbapi_connection.isolation_level = "IMMEDIATE"
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=15000")
        cursor.close()

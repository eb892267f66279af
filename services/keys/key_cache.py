"""API keys that authenticated recently, remembered per process, so that a request is
authenticated without SQL while revocation stays immediate: the memory is trusted only under
the auth generation it was read in (services/core/auth_generation.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from flask import current_app
from prometheus_client import Counter

import clock
from models import ApiKey
from models.keys import LAST_USED_RESOLUTION
from services.accounts.tenants import TenantRef
from services.core import auth_generation
from services.keys import api_keys

_KEYS = auth_generation.Memory("api-keys")  # secret digest -> KeyGrant


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


def init_app(app) -> None:
    """Per-app memory, and a counter on /internal/metrics (after observability.init_app)."""
    lookups = Counter(
        "dms_api_key_lookups",
        "API key authentications by where the key came from: remembered (no SQL), database "
        "(first use in this process, a change, or Redis unreachable) or unknown (no such key)",
        ["source"],
        registry=app.extensions["dms.metrics"].registry,
    )
    app.extensions["dms.key_cache"] = {"last_use": {}, "lookups": lookups}


def _state() -> dict:
    return current_app.extensions["dms.key_cache"]


def lookup(secret: str) -> KeyGrant | None:
    """The grant of the key this secret belongs to (revoked keys included), or None.

    Costs no SQL when the key was read recently and nothing changed since (the generation's
    GET rides along with the rate limiter's round trip: auth_generation.for_request);
    otherwise the database lookup of `api_keys.find_by_digest`."""
    if not api_keys.secret_well_formed(secret):
        return None
    digest = api_keys.hash_secret(secret)
    generation = auth_generation.for_request()  # BEFORE the database, or a change could slip
    state = _state()
    grant = _KEYS.get(digest, generation)
    if grant is not auth_generation.MISSING:
        state["lookups"].labels("remembered").inc()
        return grant
    key = api_keys.find_by_digest(digest)
    if key is None:
        state["lookups"].labels("unknown").inc()
        return None  # unknown secrets are not remembered: guesses would cost memory
    state["lookups"].labels("database").inc()
    grant = KeyGrant.of(key)
    _KEYS.put(digest, grant, generation)
    return grant


def use_is_due(key_id: str) -> bool:
    """Whether this process should record a use of the key now: the database keeps
    last-used to the minute, so one attempt per key per minute per process is enough."""
    last_use: dict[str, datetime] = _state()["last_use"]
    now = clock.now()
    previous = last_use.get(key_id)
    if previous is not None and now - previous < LAST_USED_RESOLUTION:
        return False
    if len(last_use) >= auth_generation.MAX_ENTRIES:
        last_use.clear()
    last_use[key_id] = now
    return True


def flush() -> None:
    """Make every process read every key (and user, and token family) again."""
    auth_generation.renew()

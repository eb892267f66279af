"""API usage counters in Redis: requests per tenant and per credential, by minute and hour.

They feed the portal's charts ("requests in the last 24 hours", "this hour against the
quota"); enforcement of quotas is the rate limiter's job, not this module's. Counting never
fails a request: if Redis is unreachable the count is skipped and logged."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from redis.exceptions import RedisError

import clock
from extensions import redis_store

log = logging.getLogger("dms.usage")

_MINUTE_TTL = 2 * 3600
_HOUR_TTL = 8 * 24 * 3600


def _minute_key(tenant_id: str, credential_id: str | None, at: datetime) -> str:
    return redis_store.key("usage", "m", tenant_id, credential_id or "*", at.strftime("%Y%m%d%H%M"))


def _hour_key(tenant_id: str, credential_id: str | None, at: datetime) -> str:
    return redis_store.key("usage", "h", tenant_id, credential_id or "*", at.strftime("%Y%m%d%H"))


def record_request(tenant_id: str, credential_id: str | None) -> None:
    """Count one request for the tenant and, when known, for the credential."""
    now = clock.now()
    try:
        pipe = redis_store.client.pipeline(transaction=False)
        for cred in {None, credential_id}:
            minute, hour = _minute_key(tenant_id, cred, now), _hour_key(tenant_id, cred, now)
            pipe.incr(minute)
            pipe.expire(minute, _MINUTE_TTL)
            pipe.incr(hour)
            pipe.expire(hour, _HOUR_TTL)
        pipe.execute()
    except RedisError as exc:
        log.warning("usage not recorded: %s", type(exc).__name__)


def _sum(keys: list[str]) -> list[int]:
    try:
        values = redis_store.client.mget(keys)
    except RedisError as exc:
        log.warning("usage not read: %s", type(exc).__name__)
        return [0] * len(keys)
    return [int(v) if v is not None else 0 for v in values]


def last_hour(tenant_id: str, credential_id: str | None = None) -> int:
    """Requests in the last 60 minutes (minute buckets, so it slides)."""
    now = clock.now()
    keys = [_minute_key(tenant_id, credential_id, now - timedelta(minutes=i)) for i in range(60)]
    return sum(_sum(keys))


def hourly_counts(
    tenant_id: str, credential_id: str | None = None, hours: int = 24
) -> list[tuple[datetime, int]]:
    """(start of hour, requests) for the last `hours` hours, oldest first."""
    top = clock.now().replace(minute=0, second=0, microsecond=0)
    starts = [top - timedelta(hours=i) for i in reversed(range(hours))]
    counts = _sum([_hour_key(tenant_id, credential_id, s) for s in starts])
    return list(zip(starts, counts, strict=True))


def minute_counts(
    tenant_id: str, credential_id: str | None = None, minutes: int = 60
) -> list[tuple[datetime, int]]:
    """(start of minute, requests) for the last `minutes` minutes, oldest first."""
    top = clock.now().replace(second=0, microsecond=0)
    starts = [top - timedelta(minutes=i) for i in reversed(range(minutes))]
    counts = _sum([_minute_key(tenant_id, credential_id, s) for s in starts])
    return list(zip(starts, counts, strict=True))

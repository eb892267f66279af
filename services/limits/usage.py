"""API usage counters in Redis: requests per tenant and per credential, by minute and hour.

They feed the portal's charts ("requests in the last 24 hours", "this hour against the
quota"); enforcement of quotas is the rate limiter's job, not this module's. Counting never
fails or slows a request: each process adds its counts up in memory and a background thread
writes them to Redis once a second (FLUSH_SECONDS), in one pipeline. Readers flush their own
process first, so a single-process deployment always reads its latest counts; another
process's counts show up within a second. If Redis is unreachable the counts of that second
are dropped and logged; counts still in memory when a process is killed (not stopped) are
lost, at most one second's worth."""

from __future__ import annotations

import atexit
import logging
import os
import threading
import time
from collections import Counter
from datetime import datetime, timedelta

from flask import Flask, current_app
from redis.exceptions import RedisError

import clock
from extensions import redis_store

log = logging.getLogger("dms.usage")

_MINUTE_TTL = 2 * 3600
_HOUR_TTL = 8 * 24 * 3600
FLUSH_SECONDS = 1.0
# A flusher thread with nothing to write for this long stops; the next count restarts it.
_IDLE_STOP_SECONDS = 60.0


def _minute_key(tenant_id: str, credential_id: str | None, at: datetime) -> str:
    return redis_store.key("usage", "m", tenant_id, credential_id or "*", at.strftime("%Y%m%d%H%M"))


def _hour_key(tenant_id: str, credential_id: str | None, at: datetime) -> str:
    return redis_store.key("usage", "h", tenant_id, credential_id or "*", at.strftime("%Y%m%d%H"))


class _Pending:
    """One app's counts not yet in Redis, {(tenant, credential or None, minute): n}, and the
    thread that writes them. Rebuilt after a fork: a child must not flush its parent's."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.lock = threading.Lock()
        self.counts: Counter[tuple[str, str | None, datetime]] = Counter()
        self.thread: threading.Thread | None = None

    def add(self, app: Flask, tenant_id: str, credential_id: str | None) -> None:
        minute = clock.now().replace(second=0, microsecond=0)
        with self.lock:
            self.counts[(tenant_id, None, minute)] += 1
            if credential_id is not None:
                self.counts[(tenant_id, credential_id, minute)] += 1
            if self.thread is None:
                self.thread = threading.Thread(
                    target=self._run, args=(app,), name="dms-usage-flush", daemon=True
                )
                self.thread.start()

    def take(self) -> Counter:
        with self.lock:
            taken, self.counts = self.counts, Counter()
            return taken

    def _run(self, app: Flask) -> None:
        idle = 0.0
        while True:
            time.sleep(FLUSH_SECONDS)
            with app.app_context():
                wrote = flush()
            idle = 0.0 if wrote else idle + FLUSH_SECONDS
            with self.lock:
                if idle >= _IDLE_STOP_SECONDS and not self.counts:
                    self.thread = None
                    return


def _pending(app: Flask) -> _Pending:
    pending = app.extensions.get("dms.usage")
    if pending is None or pending.pid != os.getpid():
        pending = app.extensions["dms.usage"] = _Pending()
        atexit.register(_flush_at_exit, app)
    return pending


def _flush_at_exit(app: Flask) -> None:
    with app.app_context():
        flush()


def record_request(tenant_id: str, credential_id: str | None) -> None:
    """Count one request for the tenant and, when known, for the credential (in memory;
    written to Redis within FLUSH_SECONDS)."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    _pending(app).add(app, tenant_id, credential_id)


def flush() -> int:
    """Write this process's pending counts to Redis now; returns how many buckets."""
    pending = current_app.extensions.get("dms.usage")
    if pending is None or pending.pid != os.getpid():
        return 0
    counts = pending.take()
    if not counts:
        return 0
    try:
        pipe = redis_store.client.pipeline(transaction=False)
        for (tenant_id, credential_id, minute), n in counts.items():
            for key, ttl in (
                (_minute_key(tenant_id, credential_id, minute), _MINUTE_TTL),
                (_hour_key(tenant_id, credential_id, minute), _HOUR_TTL),
            ):
                pipe.incrby(key, n)
                pipe.expire(key, ttl)
        pipe.execute()
    except RedisError as exc:
        log.warning("usage not recorded: %s (%d requests)", type(exc).__name__,
                    sum(n for (_, cred, _), n in counts.items() if cred is None))  # fmt: skip
    return len(counts)


def _sum(keys: list[str]) -> list[int]:
    flush()  # this process's latest counts first
    try:
        values = redis_store.client.mget(keys)
    except RedisError as exc:
        log.warning("usage not read: %s", type(exc).__name__)
        return [0] * len(keys)
    return [int(v) if v is not None else 0 for v in values]


# Hours younger than this are read from Redis (their keys outlive them by a day or more);
# older ones from what services/analytics rolled up into the database.
HOURS_KEPT = timedelta(days=7)


def counts_for_hours(
    tenant_id: str, credential_id: str | None, starts: list[datetime]
) -> list[int]:
    """Requests in each hour starting at `starts` (within HOURS_KEPT of now)."""
    return _sum([_hour_key(tenant_id, credential_id, s) for s in starts]) if starts else []


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

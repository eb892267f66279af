"""Rate limits (spec 8.1, CONTRACT §5) beyond counting: the state of a request's windows (for
the headers, the 429's wait and the portal's meters), and what happens when Redis is
unreachable (fail open, or closed by configuration). Which windows count a request is
windows.py's; the counting is Flask-Limiter's (api/limits.py) on the moving window of
moving_window.py."""

from __future__ import annotations

import logging
import math
import time

from flask import current_app, g
from limits.errors import StorageError
from limits.storage import RedisStorage
from limits.strategies import MovingWindowRateLimiter
from redis.exceptions import RedisError

from errors import DomainError
from services.limits import moving_window
from services.limits.windows import Verdict, Window, WindowState, hourly_quota, window_seconds

log = logging.getLogger("dms.rate_limits")

STORAGE_ERRORS = (StorageError, RedisError, OSError)


def _limiter():
    """The app's Flask-Limiter `Limiter` (api/limits.py builds one per app)."""
    return current_app.extensions["dms.limiter"]


def _moving_window_storage() -> RedisStorage | None:
    limiter = _limiter()
    if isinstance(limiter.limiter, MovingWindowRateLimiter) and isinstance(
        limiter.storage, RedisStorage
    ):
        return limiter.storage
    return None


def states_read_with_hits(windows: list[Window]) -> list[WindowState] | None:
    """The states `MovingWindowWithState.hit` read for `windows` in this request, or None when
    one of them was not hit (a refusal stops at the first full window)."""
    reads = g.get("rate_window_reads")
    storage = _moving_window_storage()
    if not reads or storage is None:
        return None
    states = []
    for window in windows:
        read = reads.get(moving_window.redis_key(storage, window))
        if read is None:
            return None
        states.append(WindowState(window, *read))
    return states


def peek(windows: list[Window]) -> Verdict:
    """The windows' state: as read when they were charged, else read now without counting."""
    states = states_read_with_hits(windows)
    if states is not None:
        return Verdict(hourly_quota(windows), states)
    try:
        return Verdict(hourly_quota(windows), _states(windows))
    except STORAGE_ERRORS:
        return unknown(windows)


def _states(windows: list[Window]) -> list[WindowState]:
    storage = _moving_window_storage()
    if storage is not None:
        return moving_window.read_states(storage, windows)
    limiter = _limiter().limiter
    states = []
    for window in windows:
        stats = limiter.get_window_stats(window.item, *window.identifiers)
        states.append(WindowState(window, stats.remaining, stats.reset_time))
    return states


def unknown(windows: list[Window]) -> Verdict:
    now = time.time()
    states = [WindowState(w, w.amount, now + w.seconds) for w in windows]
    return Verdict(hourly_quota(windows), states, degraded=True)


def rate_limit_exceeded(verdict: Verdict) -> DomainError:
    wait = verdict.retry_after()
    unit = "second" if wait == 1 else "seconds"
    return DomainError(
        429,
        "RATE_LIMIT_EXCEEDED",
        f"Rate limit exceeded: retry in {wait} {unit}.",
        headers={"Retry-After": str(wait)},
    )


# --- Redis unreachable -------------------------------------------------------------------


def storage_down(windows: list[Window], exc: Exception) -> Verdict:
    """Redis could not count this request: record it (metric, log, health), then answer 503
    when failing closed, or return a verdict of full windows when failing open."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    state = app.extensions["dms.rate_limits"]
    state["failures"] = state.get("failures", 0) + 1
    state["last_failure_at"] = time.time()
    state["last_error"] = type(exc).__name__
    fail_open = app.config["DMS_RATE_LIMIT_FAIL_OPEN"]
    counter = state.get("metric")
    if counter is not None:
        counter.labels("open" if fail_open else "closed").inc()
    # One log line per ten seconds per process is enough to page someone, not flood them.
    if time.time() - state.get("last_logged_at", 0.0) >= 10:
        state["last_logged_at"] = time.time()
        log.error(
            "rate-limit storage unreachable (%s): failing %s",
            type(exc).__name__,
            "open" if fail_open else "closed",
        )
    if not fail_open:
        raise DomainError(
            503,
            "SERVICE_UNAVAILABLE",
            "Rate limiting is unavailable, so requests are refused; try again shortly.",
            headers={"Retry-After": "5"},
        )
    return unknown(windows)


def storage_health() -> dict:
    """For /internal/health: can the limiter reach Redis, and what happens when it cannot."""
    state = current_app.extensions["dms.rate_limits"]
    try:
        ok = bool(_limiter().storage.check())
    except STORAGE_ERRORS:
        ok = False
    report = {
        "ok": ok,
        "mode": "fail-open" if current_app.config["DMS_RATE_LIMIT_FAIL_OPEN"] else "fail-closed",
        "strategy": current_app.config["DMS_RATE_LIMIT_STRATEGY"],
        "storageFailures": state.get("failures", 0),
    }
    if state.get("last_error"):
        report["lastError"] = state["last_error"]
        report["lastFailureAt"] = int(state["last_failure_at"])
    return report


# --- usage for the portal ----------------------------------------------------------------


def last_hour_usage(tenant, key=None) -> dict:
    """Requests counted in the sliding hour, from the limiter's own windows (the numbers the
    429 is decided on): {"used", "quota", "remaining", "resetAt"}; None values if unknown,
    which includes keys without a quota below the tenant's (they have no window of their
    own: see `caller_windows`)."""
    hourly, _ = tenant.limits
    quota = min(hourly, key.hourly_quota) if key is not None and key.hourly_quota else hourly
    unknown = {"used": None, "quota": quota, "remaining": None, "resetAt": None}
    if key is None:
        window = Window("hour", "tenant", tenant.id, hourly, window_seconds()[0])
    elif quota < hourly:
        window = Window("hour", "credential", key.id, quota, window_seconds()[0])
    else:
        return unknown
    verdict = peek([window])
    if verdict.degraded:
        return unknown
    state = verdict.states[0]
    return {
        "used": window.amount - state.remaining,
        "quota": window.amount,
        "remaining": state.remaining,
        "resetAt": math.ceil(state.reset_at),
    }

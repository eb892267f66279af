"""Rate limits (spec 8.1, CONTRACT §5): which windows govern a request, counting hits in
them through the `limits` library on Redis, the 429, and the headers every API response
carries. Fail open (or closed, by configuration) when Redis is unreachable."""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass
from functools import cached_property

from flask import current_app, g
from limits import RateLimitItemPerSecond
from limits.errors import StorageError
from limits.storage import RedisStorage
from limits.strategies import MovingWindowRateLimiter
from redis.exceptions import NoScriptError, RedisError

from errors import DomainError
from extensions import rate_limit_store

log = logging.getLogger("dms.rate_limits")

STORAGE_ERRORS = (StorageError, RedisError, OSError)


class _Window(RateLimitItemPerSecond):
    """A window keyed by who it counts, not by its size: a plan change keeps the history."""

    def key_for(self, *identifiers: bytes | str | int | float) -> str:
        return "/".join(str(i) for i in identifiers)


@dataclass(frozen=True)
class Window:
    """One budget: `amount` requests in any `seconds`, counted for `scope`:`ident`."""

    policy: str  # "hour" | "burst"
    scope: str  # "credential" | "tenant" | "ip" | "sign-in"
    ident: str
    amount: int
    seconds: int

    @cached_property
    def item(self) -> _Window:
        return _Window(max(self.amount, 1), self.seconds)

    @property
    def identifiers(self) -> tuple[str, str, str]:
        return (self.scope, self.ident, self.policy)


@dataclass
class WindowState:
    window: Window
    remaining: int
    reset_at: float  # when the remainder next grows


@dataclass
class Verdict:
    """What the limiter decided for this request, and what the headers say about it."""

    hourly_quota: int
    states: list[WindowState]
    breached: Window | None = None
    degraded: bool = False  # Redis was unreachable; nothing was counted

    @property
    def remaining(self) -> int:
        return max(0, min(s.remaining for s in self.states))

    @property
    def reset_at(self) -> int:
        return math.ceil(self._binding_reset())

    def _binding_reset(self) -> float:
        # With two windows at the same (smallest) remainder, it grows once both have.
        low = min(s.remaining for s in self.states)
        return max(s.reset_at for s in self.states if s.remaining == low)

    def retry_after(self) -> int:
        return max(1, math.ceil(self._binding_reset() - time.time()))


def caller_windows(tenant, credential) -> list[Window]:
    """Credential first, burst before hour, so a refusal by a small window charges nothing
    wider. A key's own quota applies below the tenant's, never above it.

    A credential window as large as the tenant's is left out: the tenant's window counts
    every request the credential's would (and those of its other credentials), so it always
    fills first and the credential's could never decide anything. Keys without a quota of
    their own therefore cost two Redis windows per request, not four."""
    hourly, burst = tenant.limits
    own = hourly
    if credential.key is not None and credential.key.hourly_quota:
        own = min(hourly, credential.key.hourly_quota)
    hour_s, burst_s = _seconds()
    windows = []
    if own < burst:
        windows.append(Window("burst", "credential", credential.id, own, burst_s))
    if own < hourly:
        windows.append(Window("hour", "credential", credential.id, own, hour_s))
    return [
        *windows,
        Window("burst", "tenant", tenant.id, burst, burst_s),
        Window("hour", "tenant", tenant.id, hourly, hour_s),
    ]


def ip_windows(ip: str, sign_in: bool = False) -> list[Window]:
    config = current_app.config
    hour_s, burst_s = _seconds()
    if sign_in:
        scope, hourly, burst = "sign-in", "SIGN_IN_HOURLY", "SIGN_IN_BURST"
    else:
        scope, hourly, burst = "ip", "IP_HOURLY", "IP_BURST"
    return [
        Window("burst", scope, ip, config[f"DMS_RATE_LIMIT_{burst}"], burst_s),
        Window("hour", scope, ip, config[f"DMS_RATE_LIMIT_{hourly}"], hour_s),
    ]


def _seconds() -> tuple[int, int]:
    config = current_app.config
    return config["DMS_RATE_LIMIT_HOUR_SECONDS"], config["DMS_RATE_LIMIT_BURST_SECONDS"]


def _hourly_quota(windows: list[Window]) -> int:
    hourly = [w.amount for w in windows if w.policy == "hour"]
    return min(hourly or [w.amount for w in windows])


def enforce(windows: list[Window]) -> Verdict:
    """Count this request in every window; raise the spec's 429 when one is full. The
    verdict is kept on `g` for the response headers."""
    try:
        if _moving_window_storage() is not None:
            verdict = _enforce_pipelined(windows)
        else:
            verdict = _enforce_one_by_one(windows)
    except STORAGE_ERRORS as exc:
        verdict = _storage_down(windows, exc)
    g.rate_limit = verdict
    if verdict.breached is not None:
        raise rate_limit_exceeded(verdict)
    return verdict


def _enforce_one_by_one(windows: list[Window]) -> Verdict:
    """Credential first, burst before hour, stopping at the first full window, so a
    refusal by a small window charges nothing wider."""
    limiter = rate_limit_store.limiter
    breached = None
    for window in windows:
        if not limiter.hit(window.item, *window.identifiers):
            breached = window
            break
    return Verdict(_hourly_quota(windows), _states(windows), breached)


# A window seen with at least this much room left is not read again before the next acquire
# for a second: at most a few requests per process land in it meanwhile.
ROOM_HINT_SECONDS = 1.0
_ROOM_HINT_MIN = 5


def _enforce_pipelined(windows: list[Window]) -> Verdict:
    """The same decision in one or two Redis round trips instead of five, with the
    library's own scripts: read every window; if one is full, refuse without charging any
    (as above); otherwise acquire in all of them and read them back in one pipeline. The
    first read is skipped while this process saw every window with room in the last second.

    Each acquire is atomic, so a window never admits more than its amount; only when a
    window fills between our read (or hint) and our acquire can a refused request have been
    charged in the wider windows that still had room."""
    storage = _moving_window_storage()
    hints = current_app.extensions["dms.rate_limits"].setdefault("room", {})
    if not all(hints.get(w.identifiers, 0.0) > time.monotonic() for w in windows):
        states = _moving_window_states(storage, windows)
        full = next((s.window for s in states if s.remaining <= 0), None)
        if full is not None:
            return Verdict(_hourly_quota(windows), states, full)
    now = time.time()
    acquires = [
        (
            storage.lua_acquire_moving_window,
            [_redis_key(storage, w)],
            [now, w.item.amount, w.seconds, 1],
        )
        for w in windows
    ]
    results = _run_scripts(storage, acquires + _window_reads(storage, windows, now))
    acquired, found = results[: len(windows)], results[len(windows) :]
    breached = next((w for w, ok in zip(windows, acquired, strict=True) if not ok), None)
    states = _window_states(windows, found, now)
    _remember_room(hints, states)
    return Verdict(_hourly_quota(windows), states, breached)


def _remember_room(hints: dict, states: list[WindowState]) -> None:
    if len(hints) > 10_000:  # one entry per active window; forget them all now and then
        hints.clear()
    until = time.monotonic() + ROOM_HINT_SECONDS
    for state in states:
        roomy = state.remaining >= max(_ROOM_HINT_MIN, state.window.amount // 10)
        if roomy:
            hints[state.window.identifiers] = until
        else:
            hints.pop(state.window.identifiers, None)


def _moving_window_storage() -> RedisStorage | None:
    limiter = rate_limit_store.limiter
    if isinstance(limiter, MovingWindowRateLimiter) and isinstance(limiter.storage, RedisStorage):
        return limiter.storage
    return None


def peek(windows: list[Window]) -> Verdict:
    """The windows' state without counting (responses nothing was charged for)."""
    try:
        return Verdict(_hourly_quota(windows), _states(windows))
    except STORAGE_ERRORS:
        return _unknown(windows)


def _states(windows: list[Window]) -> list[WindowState]:
    storage = _moving_window_storage()
    if storage is not None:
        return _moving_window_states(storage, windows)
    limiter = rate_limit_store.limiter
    states = []
    for window in windows:
        stats = limiter.get_window_stats(window.item, *window.identifiers)
        states.append(WindowState(window, stats.remaining, stats.reset_time))
    return states


def _moving_window_states(storage: RedisStorage, windows: list[Window]) -> list[WindowState]:
    """The library's own read script for each window, all in one round trip."""
    now = time.time()
    return _window_states(windows, _run_scripts(storage, _window_reads(storage, windows, now)), now)


def _redis_key(storage: RedisStorage, window: Window) -> str:
    return storage.prefixed_key(window.item.key_for(*window.identifiers))


def _window_reads(storage: RedisStorage, windows: list[Window], now: float) -> list[tuple]:
    return [
        (storage.lua_moving_window, [_redis_key(storage, w)], [now - w.seconds, w.item.amount])
        for w in windows
    ]


def _run_scripts(storage: RedisStorage, calls: list[tuple]) -> list:
    """Run the library's Lua scripts, (script, keys, args) each, in ONE round trip.

    redis-py's pipeline would first ask SCRIPT EXISTS (a second round trip on every call);
    we send EVALSHA directly and load the scripts only if Redis answers NOSCRIPT (after a
    restart or SCRIPT FLUSH), then try once more."""
    for attempt in (1, 2):
        pipe = storage.get_connection().pipeline(transaction=False)
        for script, keys, args in calls:
            pipe.evalsha(script.sha, len(keys), *keys, *args)
        try:
            return pipe.execute()
        except NoScriptError:
            if attempt == 2:
                raise
            connection = storage.get_connection()
            for script in {script.sha: script for script, _, _ in calls}.values():
                connection.script_load(script.script)
    raise AssertionError("unreachable")


def _window_states(windows: list[Window], found: list, now: float) -> list[WindowState]:
    states = []
    for window, entry in zip(windows, found, strict=True):
        start, count = (float(entry[0]), int(entry[1])) if entry else (now, 0)
        states.append(WindowState(window, window.item.amount - count, start + window.seconds))
    return states


def _unknown(windows: list[Window]) -> Verdict:
    now = time.time()
    states = [WindowState(w, w.amount, now + w.seconds) for w in windows]
    return Verdict(_hourly_quota(windows), states, degraded=True)


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


def _storage_down(windows: list[Window], exc: Exception) -> Verdict:
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
    return _unknown(windows)


def storage_health() -> dict:
    """For /internal/health: can the limiter reach Redis, and what happens when it cannot."""
    state = current_app.extensions["dms.rate_limits"]
    try:
        ok = bool(rate_limit_store.limiter.storage.check())
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
        window = Window("hour", "tenant", tenant.id, hourly, _seconds()[0])
    elif quota < hourly:
        window = Window("hour", "credential", key.id, quota, _seconds()[0])
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

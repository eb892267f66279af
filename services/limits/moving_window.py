"""The moving window on Redis, as the `limits` library stores it: its Lua scripts run by hash
and pipelined, and the strategy Flask-Limiter counts with, which reads each window back in
the same round trip as the hit (services/limits/rate_limits.py turns the reads into the
response headers)."""

from __future__ import annotations

import time
from collections.abc import Callable

from flask import g
from limits import RateLimitItem
from limits.storage import RedisStorage
from limits.strategies import MovingWindowRateLimiter
from redis.exceptions import NoScriptError

from services.core import deferred_reads
from services.limits.windows import Window, WindowState

# A window seen with at least this much room left is trusted to have room for a second: at
# most a few requests per process land in it meanwhile.
ROOM_HINT_SECONDS = 1.0
_ROOM_HINT_MIN = 5


class MovingWindowWithState(MovingWindowRateLimiter):
    """The moving window whose every hit also reads its window back in the same round trip
    (the library's own two scripts, pipelined by hash) and keeps what it read on `g`, so the
    response headers need no read of their own.

    `request_windows()` names every window the current request is counted in. When this
    process saw each of them with room in the last ROOM_HINT_SECONDS, the first hit acquires
    in all of them in one round trip and the request's later hits answer from that:
    Flask-Limiter still asks them in order. Each acquire is atomic, so no window ever admits
    more than its amount; only when a window fills between the hint and the acquire can a
    refused request have been charged in windows checked after it (Flask-Limiter's own
    sequential checks charge the windows before it the same way)."""

    def __init__(self, storage: RedisStorage, request_windows: Callable[[], list[Window]]):
        super().__init__(storage)
        self._request_windows = request_windows
        self._room_until: dict[str, float] = {}  # window key -> monotonic deadline

    def hit(self, item: RateLimitItem, *identifiers: str, cost: int = 1) -> bool:
        storage = self.storage
        assert isinstance(storage, RedisStorage)
        key = storage.prefixed_key(item.key_for(*identifiers))
        batch = g.get("rate_window_batch")
        if batch is not None and key in batch:
            return batch.pop(key)
        windows = self._request_windows()
        keys = [redis_key(storage, w) for w in windows]
        first_hit = "rate_window_reads" not in g  # a later hit must never re-acquire earlier ones
        now_m = time.monotonic()
        roomy = all(self._room_until.get(k, 0.0) > now_m for k in keys)
        if cost == 1 and first_hit and key in keys and len(keys) > 1 and roomy:
            g.rate_window_batch = batch = self._acquire(storage, windows, keys)
            return batch.pop(key)
        return self._acquire_one(storage, item, key, cost)

    def _acquire_one(self, storage: RedisStorage, item: RateLimitItem, key: str, cost: int):
        seconds = item.get_expiry()
        now = time.time()
        acquired, found = run_scripts(
            storage,
            [
                (storage.lua_acquire_moving_window, [key], [now, item.amount, seconds, cost]),
                (storage.lua_moving_window, [key], [now - seconds, item.amount]),
            ],
        )
        self._note(key, item.amount, seconds, found, now)
        return bool(acquired)

    def _acquire(self, storage: RedisStorage, windows: list[Window], keys: list[str]) -> dict:
        now = time.time()
        acquires = [
            (storage.lua_acquire_moving_window, [k], [now, w.item.amount, w.seconds, 1])
            for w, k in zip(windows, keys, strict=True)
        ]
        results = run_scripts(storage, acquires + window_reads(storage, windows, now))
        acquired, found = results[: len(windows)], results[len(windows) :]
        for window, k, read in zip(windows, keys, found, strict=True):
            self._note(k, window.item.amount, window.seconds, read, now)
        return {k: bool(ok) for k, ok in zip(keys, acquired, strict=True)}

    def _note(self, key: str, amount: int, seconds: int, found, now: float) -> None:
        start, count = (float(found[0]), int(found[1])) if found else (now, 0)
        remaining = amount - count
        g.setdefault("rate_window_reads", {})[key] = (remaining, start + seconds)
        if len(self._room_until) > 10_000:  # one entry per active window; forget them now and then
            self._room_until.clear()
        if remaining >= max(_ROOM_HINT_MIN, amount // 10):
            self._room_until[key] = time.monotonic() + ROOM_HINT_SECONDS
        else:
            self._room_until.pop(key, None)


def read_states(storage: RedisStorage, windows: list[Window]) -> list[WindowState]:
    """The library's own read script for each window, all in one round trip."""
    now = time.time()
    return window_states(windows, run_scripts(storage, window_reads(storage, windows, now)), now)


def redis_key(storage: RedisStorage, window: Window) -> str:
    return storage.prefixed_key(window.item.key_for(*window.identifiers))


def window_reads(storage: RedisStorage, windows: list[Window], now: float) -> list[tuple]:
    return [
        (storage.lua_moving_window, [redis_key(storage, w)], [now - w.seconds, w.item.amount])
        for w in windows
    ]


def run_scripts(storage: RedisStorage, calls: list[tuple]) -> list:
    """Run the library's Lua scripts, (script, keys, args) each, in ONE round trip.

    redis-py's pipeline would first ask SCRIPT EXISTS (a second round trip on every call);
    we send EVALSHA directly and load the scripts only if Redis answers NOSCRIPT (after a
    restart or SCRIPT FLUSH). Then only the calls that were refused run again, in order:
    an acquire that did run must never run twice."""
    results = _pipeline(storage, calls)
    refused = [i for i, result in enumerate(results) if isinstance(result, NoScriptError)]
    if refused:
        connection = storage.get_connection()
        for script in {calls[i][0].sha: calls[i][0] for i in refused}.values():
            connection.script_load(script.script)
        for i, result in zip(refused, _pipeline(storage, [calls[i] for i in refused]), strict=True):
            results[i] = result
    for result in results:
        if isinstance(result, Exception):
            raise result
    return results


def _pipeline(storage: RedisStorage, calls: list[tuple]) -> list:
    """The calls' results; the request's deferred reads (the auth generation) ride along."""
    pipe = storage.get_connection().pipeline(transaction=False)
    for script, keys, args in calls:
        pipe.evalsha(script.sha, len(keys), *keys, *args)
    riders = deferred_reads.attach(pipe)
    results = pipe.execute(raise_on_error=False)
    if riders:
        deferred_reads.deliver(riders, results[len(calls) :])
    return results[: len(calls)]


def window_states(windows: list[Window], found: list, now: float) -> list[WindowState]:
    states = []
    for window, entry in zip(windows, found, strict=True):
        start, count = (float(entry[0]), int(entry[1])) if entry else (now, 0)
        states.append(WindowState(window, window.item.amount - count, start + window.seconds))
    return states

"""Portal sign-in throttling: failed attempts counted per account and per client IP in Redis.

The counting is the `limits` library's moving window (an exact sliding log), stored on our
Redis under the app's key prefix; this module only decides what is counted and how the
refusal is worded. Only failures count, so a person who types the password right is never
slowed down by their own earlier success.
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass

from flask import current_app
from limits import RateLimitItem, parse
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter
from redis.exceptions import RedisError

from extensions import redis_store

log = logging.getLogger("dms.login_throttle")

ACCOUNT_LIMIT = "5/15 minutes"  # failures per workspace + email
IP_LIMIT = "20/15 minutes"  # failures per client address, whatever the account


@dataclass(frozen=True)
class Refusal:
    """Why sign-in is refused right now, and for how long."""

    scope: str  # "account" | "ip"
    retry_after: int  # seconds

    @property
    def message(self) -> str:
        wait = _human_wait(self.retry_after)
        if self.scope == "account":
            return (
                "Too many failed sign-in attempts for this account. "
                f"Try again in {wait}, or ask an administrator to check the account."
            )
        return f"Too many failed sign-in attempts from your network. Try again in {wait}."


def _human_wait(seconds: int) -> str:
    if seconds < 60:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = math.ceil(seconds / 60)
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def _limits_url(url: str) -> str:
    """`limits` names its unix-socket scheme `redis+unix://`; our connector says `unix://`."""
    if url.startswith("unix://"):
        return "redis+unix://" + url[len("unix://") :]
    return url


def _limiter() -> MovingWindowRateLimiter:
    state = current_app.extensions.setdefault("dms.login_throttle", {})
    if "limiter" not in state:
        storage = storage_from_string(
            _limits_url(redis_store.url()),
            key_prefix=redis_store.key("login-throttle"),
        )
        state["limiter"] = MovingWindowRateLimiter(storage)
    return state["limiter"]


def _checks(workspace: str | None, email: str, ip: str) -> list[tuple[str, RateLimitItem, str]]:
    account = f"{workspace or '(support)'}:{(email or '').strip().lower()}"
    return [
        ("account", parse(ACCOUNT_LIMIT), account),
        ("ip", parse(IP_LIMIT), ip or "-"),
    ]


def refusal(workspace: str | None, email: str, ip: str) -> Refusal | None:
    """A Refusal when the account or the address has used up its failures, else None.

    Without Redis the check is skipped (logged): an outage of the counter store must not
    lock every administrator out, and Argon2 keeps guessing slow in the meantime.
    """
    try:
        limiter = _limiter()
        for scope, item, ident in _checks(workspace, email, ip):
            if not limiter.test(item, "login", scope, ident):
                stats = limiter.get_window_stats(item, "login", scope, ident)
                return Refusal(scope, max(1, math.ceil(stats.reset_time - time.time())))
    except RedisError as exc:
        log.warning("login throttle unavailable, not enforced: %s", type(exc).__name__)
    return None


def record_failure(workspace: str | None, email: str, ip: str) -> None:
    try:
        limiter = _limiter()
        for scope, item, ident in _checks(workspace, email, ip):
            limiter.hit(item, "login", scope, ident)
    except RedisError as exc:
        log.warning("login failure not counted: %s", type(exc).__name__)


def clear_account(workspace: str | None, email: str) -> None:
    """A successful sign-in forgives the account's earlier failures (not the address's)."""
    try:
        scope, item, ident = _checks(workspace, email, "")[0]
        _limiter().clear(item, "login", scope, ident)
    except RedisError as exc:
        log.warning("login failures not cleared: %s", type(exc).__name__)

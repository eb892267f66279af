"""Password sign-in throttling: failed attempts counted per account and client address pair,
with delays that grow with the failures, and per client address under a ceiling far above
one office's normal use.

Counting per pair means an attacker guessing an admin's password slows down only their own
attempts: the admin signs in from their own address at once (a per-account lock would let
anyone lock any admin out), and one office behind NAT is not locked by a colleague's typos.
The counting is the `limits` library's moving window (an exact sliding log) on our Redis;
this module decides what is counted and how the refusal is worded. Only failures count.
Passkey sign-ins are not password guesses and are not throttled here."""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass

from flask import current_app
from limits import RateLimitItem, parse
from redis.exceptions import RedisError

from services.core.throttles import moving_window

log = logging.getLogger("dms.login_throttle")
THROTTLE = "login-throttle"  # the prefix of its Redis keys

# Failures per workspace + email + address: a short wait after 5, longer after 10 and 20.
PAIR_LIMITS = ("5/minute", "10/15 minutes", "20/hour")


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
                "Too many failed sign-in attempts for this account from your address. "
                f"Try again in {wait}, or ask an administrator to check the account."
            )
        return f"Too many failed sign-in attempts from your network. Try again in {wait}."


def _human_wait(seconds: int) -> str:
    if seconds < 60:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = math.ceil(seconds / 60)
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def _checks(workspace: str | None, email: str, ip: str) -> list[tuple[str, RateLimitItem, str]]:
    pair = f"{workspace or '(support)'}:{(email or '').strip().lower()}@{ip or '-'}"
    ceiling = f"{current_app.config['DMS_SIGN_IN_FAILURES_PER_IP']}/15 minutes"
    return [("account", parse(limit), pair) for limit in PAIR_LIMITS] + [
        ("ip", parse(ceiling), ip or "-")
    ]


def refusal(workspace: str | None, email: str, ip: str) -> Refusal | None:
    """A Refusal when the account or the address has used up its failures, else None.

    Without Redis the check is skipped (logged): an outage of the counter store must not
    lock every administrator out, and Argon2 keeps guessing slow in the meantime.
    """
    try:
        limiter = moving_window(THROTTLE)
        waits: dict[str, int] = {}
        for scope, item, ident in _checks(workspace, email, ip):
            if not limiter.test(item, "login", scope, ident):
                stats = limiter.get_window_stats(item, "login", scope, ident)
                wait = max(1, math.ceil(stats.reset_time - time.time()))
                waits[scope] = max(waits.get(scope, 0), wait)  # the longest tier that is full
        if waits:
            scope = "account" if "account" in waits else "ip"
            return Refusal(scope, waits[scope])
    except RedisError as exc:
        log.warning("login throttle unavailable, not enforced: %s", type(exc).__name__)
    return None


def record_failure(workspace: str | None, email: str, ip: str) -> None:
    try:
        limiter = moving_window(THROTTLE)
        for scope, item, ident in _checks(workspace, email, ip):
            limiter.hit(item, "login", scope, ident)
    except RedisError as exc:
        log.warning("login failure not counted: %s", type(exc).__name__)


def clear_account(workspace: str | None, email: str, ip: str) -> None:
    """A successful sign-in forgives the pair's earlier failures (not the address's)."""
    try:
        for scope, item, ident in _checks(workspace, email, ip):
            if scope == "account":
                moving_window(THROTTLE).clear(item, "login", scope, ident)
    except RedisError as exc:
        log.warning("login failures not cleared: %s", type(exc).__name__)

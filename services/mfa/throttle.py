"""Failed second-factor attempts, counted per person and per client address: six digits are
a million guesses, so a person gets a few wrong codes per window before every attempt is
refused, whatever the code, and one address cannot spread its guesses over many accounts.
Only failures count; a right code forgives the person's count (not the address's)."""

from __future__ import annotations

import logging
import math
import time

from limits import RateLimitItem, parse
from redis.exceptions import RedisError

from services.core.throttles import moving_window

log = logging.getLogger("dms.mfa")
THROTTLE = "mfa-throttle"

USER_LIMITS = ("5/5 minutes", "20/hour")
IP_LIMITS = ("30/15 minutes",)


def _checks(user_id: str, ip: str) -> list[tuple[str, RateLimitItem, str]]:
    return [("user", parse(limit), user_id) for limit in USER_LIMITS] + [
        ("ip", parse(limit), ip or "-") for limit in IP_LIMITS
    ]


def retry_after(user_id: str, ip: str) -> int | None:
    """Seconds to wait when the person or the address used up its failures, else None.
    Without Redis the check is skipped (logged), as the password throttle does."""
    try:
        limiter = moving_window(THROTTLE)
        waits = []
        for scope, item, ident in _checks(user_id, ip):
            if not limiter.test(item, "code", scope, ident):
                stats = limiter.get_window_stats(item, "code", scope, ident)
                waits.append(max(1, math.ceil(stats.reset_time - time.time())))
        return max(waits) if waits else None
    except RedisError as exc:
        log.warning("mfa throttle unavailable, not enforced: %s", type(exc).__name__)
        return None


def record_failure(user_id: str, ip: str) -> None:
    try:
        limiter = moving_window(THROTTLE)
        for scope, item, ident in _checks(user_id, ip):
            limiter.hit(item, "code", scope, ident)
    except RedisError as exc:
        log.warning("mfa failure not counted: %s", type(exc).__name__)


def clear_user(user_id: str, ip: str) -> None:
    try:
        for scope, item, ident in _checks(user_id, ip):
            if scope == "user":
                moving_window(THROTTLE).clear(item, "code", scope, ident)
    except RedisError as exc:
        log.warning("mfa failures not cleared: %s", type(exc).__name__)

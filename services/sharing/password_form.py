"""The public page's password form: its per-form token, and wrong passwords throttled per
client address.

The page is anonymous, so there is no session to bind a CSRF token to. The token is signed
with the app's secret and names the link and (a digest of) the client address it was served
to, for an hour: a page elsewhere cannot make a visitor's browser post guesses, since it can
read no token issued to that visitor's address. Wrong passwords are counted per client
address in a moving window (the `limits` library, Flask-Limiter's, on our Redis, as sign-in
failures are: services/accounts/login_throttle.py); a full window refuses before the
password is even checked, so a throttled guess learns nothing."""

from __future__ import annotations

import hashlib
import hmac
import logging
import math
import time

from flask import current_app
from itsdangerous import BadData, URLSafeTimedSerializer
from limits import parse
from redis.exceptions import RedisError

from services.core.throttles import moving_window

log = logging.getLogger("dms.sharing")
THROTTLE = "share-link-throttle"  # the prefix of its Redis keys

FORM_TOKEN_SECONDS = 3600
# Wrong passwords per client address, across every link: a short wait after 5, longer after 20.
FAILURE_LIMITS = ("5/minute", "20/hour")


def _serializer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt="share-link-password")


def _address(ip: str) -> str:
    return hashlib.sha256((ip or "-").encode()).hexdigest()[:32]


def form_token(link_id: str, ip: str) -> str:
    return _serializer().dumps({"link": link_id, "ip": _address(ip)})


def form_token_valid(token: str, link_id: str, ip: str) -> bool:
    try:
        data = _serializer().loads(token or "", max_age=FORM_TOKEN_SECONDS)
    except BadData:
        return False
    return (
        isinstance(data, dict)
        and hmac.compare_digest(str(data.get("link")), link_id)
        and hmac.compare_digest(str(data.get("ip")), _address(ip))
    )


def retry_after(ip: str) -> int | None:
    """Seconds until this address may try a password again, or None when it may now.
    Without Redis the check is skipped (logged), and Argon2 keeps guessing slow."""
    try:
        limiter = moving_window(THROTTLE)
        waits = []
        for limit in FAILURE_LIMITS:
            item = parse(limit)
            if not limiter.test(item, "share-password", ip or "-"):
                stats = limiter.get_window_stats(item, "share-password", ip or "-")
                waits.append(max(1, math.ceil(stats.reset_time - time.time())))
        return max(waits) if waits else None
    except RedisError as exc:
        log.warning("share-link throttle unavailable, not enforced: %s", type(exc).__name__)
        return None


def record_failure(ip: str) -> None:
    try:
        for limit in FAILURE_LIMITS:
            moving_window(THROTTLE).hit(parse(limit), "share-password", ip or "-")
    except RedisError as exc:
        log.warning("share-link password failure not counted: %s", type(exc).__name__)

"""Moving windows on our Redis for the throttles a service keeps itself (failed sign-ins,
share-link passwords): the `limits` library's exact sliding log, as Flask-Limiter counts
requests, under a key prefix of the throttle's own. One limiter per app and name."""

from __future__ import annotations

from flask import current_app
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter

from extensions import redis_store


def moving_window(name: str) -> MovingWindowRateLimiter:
    """The app's limiter for the throttle `name` (its Redis keys start with `name`)."""
    limiters = current_app.extensions.setdefault("dms.throttles", {})
    if name not in limiters:
        storage = storage_from_string(
            "redis://",
            connection_pool=redis_store.pool_for(current_app),
            key_prefix=redis_store.key(name),
        )
        limiters[name] = MovingWindowRateLimiter(storage)
    return limiters[name]

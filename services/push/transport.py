"""What the APNs and FCM clients share: the timeouts of every provider call (a job never waits
longer), reading an error answer that may not be JSON at all, and Retry-After."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson
from flask import current_app

from services.core import lazy
from services.core.outbound import retry_after_seconds

httpx = lazy.module("httpx")  # loads with the first outbound call

MAX_ERROR_BODY = 4096


def timeout() -> httpx.Timeout:
    """DMS_PUSH_TIMEOUT_SECONDS (10 by default) for connecting, and for each read and write."""
    seconds = float(current_app.config["DMS_PUSH_TIMEOUT_SECONDS"])
    return httpx.Timeout(seconds, connect=min(seconds, 5.0))


def reason_of(response: httpx.Response, pick: Callable[[dict], Any]) -> str | None:
    """The provider's reason from a JSON error body; None for garbage (HTML, empty, huge)."""
    content = response.content[:MAX_ERROR_BODY]
    try:
        document = orjson.loads(content)
        value = pick(document) if isinstance(document, dict) else None
    except (orjson.JSONDecodeError, AttributeError, TypeError, KeyError, IndexError):
        return None
    return str(value)[:200] if value is not None else None


def retry_after(response: httpx.Response) -> float | None:
    return retry_after_seconds(response.headers.get("retry-after"))


def error_text(exc: Exception) -> str:
    return f"{type(exc).__name__}: {exc}"[:500]

"""Redis reads a request needs before its view runs, but not before its first round trip to
Redis: they ride along with that round trip instead of making one of their own.

The auth generation is one (services/core/auth_generation.py, `for_request`): an API request
identifies its caller from this process's memory under the generation it last read, and the
rate limiter's pipeline (services/limits/moving_window.py), the first round trip of every
counted request, carries the GET that confirms it. A read is sent at most once per request;
one that no pipeline carried (no window counted the request, or Redis failed) is `MISSING`,
and its reader asks Redis itself."""

from __future__ import annotations

from typing import Any

from flask import g, has_request_context

MISSING = object()
_PENDING = object()


def _reads() -> dict[str, Any]:
    return g.setdefault("deferred_reads", {})


def defer_get(key: str) -> None:
    """Ask for GET `key` in the request's next pipeline to Redis."""
    _reads().setdefault(key, _PENDING)


def attach(pipe) -> list[str]:
    """Queue the request's pending reads on `pipe`, after what is already there; their keys,
    in order, for `deliver`."""
    if not has_request_context() or "deferred_reads" not in g:
        return []
    pending = [key for key, value in g.deferred_reads.items() if value is _PENDING]
    for key in pending:
        pipe.get(key)
    return pending


def deliver(keys: list[str], results: list[Any]) -> None:
    """Hand the pipeline's answers to the reads `attach` queued (a failed read stays MISSING:
    its reader asks again)."""
    reads = _reads()
    for key, result in zip(keys, results, strict=True):
        reads[key] = MISSING if isinstance(result, Exception) else result


def answer(key: str) -> Any:
    """What Redis answered to the deferred GET of `key` (None for no value), or MISSING when
    no pipeline carried it; either way the read is no longer pending."""
    reads = _reads()
    value = reads.pop(key, MISSING)
    return MISSING if value is _PENDING else value

"""The service's notion of "now", in one place so tests can move time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

_offset = timedelta(0)
_frozen: datetime | None = None


def now() -> datetime:
    """Timezone-aware UTC now, shifted or frozen by tests."""
    if _frozen is not None:
        return _frozen
    return datetime.now(UTC) + _offset


def freeze(at: datetime | None) -> None:
    global _frozen
    _frozen = at


def shift(delta: timedelta) -> None:
    """Move the clock forward (or back) by `delta`; accumulates."""
    global _offset, _frozen
    if _frozen is not None:
        _frozen = _frozen + delta
    else:
        _offset += delta


def reset() -> None:
    global _offset, _frozen
    _offset = timedelta(0)
    _frozen = None


def rfc3339(value: datetime | None) -> str | None:
    """`2026-11-21T10:00:00Z`, the wire format of every timestamp. (isoformat rather than
    strftime: a third of the time, and a page of documents formats 150 of them.)"""
    if value is None:
        return None
    return value.astimezone(UTC).replace(tzinfo=None, microsecond=0).isoformat() + "Z"

"""Commit points of a unit of work, and the work that must wait for the commit.

Services end their changes with `transaction.commit()` and register follow-ups (enqueueing a
job that reads the new rows) with `after_commit()`. A caller that must add its own rows to
the same commit wraps the call in `held()`: the service then only flushes, and the caller's
own `commit()` makes everything durable at once and runs the follow-ups. The idempotency
decorator does this, so a document and the stored response for its Idempotency-Key are
written together or not at all."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from sqlalchemy import event
from sqlalchemy.orm import Session

from extensions import db

_HOLD = "dms.hold_commit"
_AFTER = "dms.after_commit"
_AFTER_ROLLBACK = "dms.after_rollback"


def after_commit(callback: Callable[[], None]) -> None:
    """Run `callback` once the current unit of work has committed (never if it rolls back)."""
    db.session.info.setdefault(_AFTER, []).append(callback)


def after_rollback(callback: Callable[[], None]) -> None:
    """Run `callback` if the current unit of work is rolled back instead (file cleanup; it
    must not touch the session). Only a real rollback runs it: a unit of work that never
    wrote has nothing to roll back, so its owner cleans up itself as well."""
    db.session.info.setdefault(_AFTER_ROLLBACK, []).append(callback)


def commit() -> None:
    """Commit and run what waited for it; only flush while a caller holds the unit open."""
    session = db.session
    if session.info.get(_HOLD):
        session.flush()
        return
    session.commit()
    session.info.pop(_AFTER_ROLLBACK, None)
    for callback in session.info.pop(_AFTER, []):
        callback()


@contextmanager
def held() -> Iterator[None]:
    """Service commits inside the block become flushes; the caller commits afterwards."""
    session = db.session
    session.info[_HOLD] = True
    try:
        yield
    finally:
        session.info.pop(_HOLD, None)


@event.listens_for(Session, "after_rollback")
def _forget_follow_ups(session: Session) -> None:
    session.info.pop(_AFTER, None)
    for callback in session.info.pop(_AFTER_ROLLBACK, []):
        callback()

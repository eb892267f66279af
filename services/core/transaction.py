"""The unit of work: services flush, the boundary commits.

A boundary is a view (`@transactional`), a job (`@transactional` too), or a CLI command
(cli/boundary.py). It commits with `commit()` when the work returned and rolls back when it
raised. Services never commit; they add rows, flush, and register what must wait for the
commit with `after_commit()` (enqueueing a job that reads the new rows) or happen only on a
rollback with `after_rollback()` (removing a stored file nobody will reference).

Two documented exceptions commit on their own, because their purpose is to be visible at
once: claiming an Idempotency-Key (services/core/idempotency.py) and the follow-up units
of work that run after a commit (scheduling text extraction). Long batch operations run by
jobs and the CLI (the trash purge, reindexing) commit once per batch, so a crash keeps the
batches already done."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import ParamSpec, TypeVar

from sqlalchemy import event
from sqlalchemy.orm import Session

from extensions import db

P = ParamSpec("P")
R = TypeVar("R")

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
    """Commit the unit of work and run what waited for it. Boundaries call this."""
    session = db.session
    session.commit()
    session.info.pop(_AFTER_ROLLBACK, None)
    for callback in session.info.pop(_AFTER, []):
        callback()


def transactional(work: Callable[P, R]) -> Callable[P, R]:
    """The boundary of a view or a job: commit when `work` returns, roll back when it raises."""

    @wraps(work)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            result = work(*args, **kwargs)
            commit()
        except BaseException:
            db.session.rollback()  # a failed commit too: its after_rollback clean-up runs
            raise
        return result

    return wrapper


@event.listens_for(Session, "after_rollback")
def _forget_follow_ups(session: Session) -> None:
    session.info.pop(_AFTER, None)
    for callback in session.info.pop(_AFTER_ROLLBACK, []):
        callback()

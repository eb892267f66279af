"""The unit of work: services flush, the boundary commits.

A boundary is a view (`@transactional`, or `@idempotent` for a creating one), a job (its
`jobs/` function runs each unit of work as `transactional(service)(...)`), or a CLI command
(cli/boundary.py). It commits with `commit()` when the work returned and rolls back
when it raised. Services never commit; they add rows, flush, and register what must wait for
the commit with `after_commit()` (enqueueing a job that reads the new rows) or happen only on
a rollback with `after_rollback()` (removing a stored file nobody will reference).

The few services that commit say why beside each commit, and `COMMITS` in
tests/core/test_architecture.py lists them: claiming and releasing an Idempotency-Key and the
copilot's quota (visible at once, standing though the request fails), the follow-up units of
work after a commit (scheduling text extraction and embedding), and the long operations of
jobs and the CLI that commit a batch at a time (the trash purge, reindexing, tenant import
and deletion), so a crash keeps the batches already done."""

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
_COLLECTED = "dms.collected"


def after_commit(callback: Callable[[], None]) -> None:
    """Run `callback` once the current unit of work has committed (never if it rolls back)."""
    db.session.info.setdefault(_AFTER, []).append(callback)


def after_commit_collect(key: str, item: object, then: Callable[[list], None]) -> None:
    """Add `item` to the unit of work's list under `key`; once it commits, `then(list)` runs
    once for all of them (a batch's documents scheduled in one go). A rollback forgets it."""
    collected = db.session.info.setdefault(_COLLECTED, {})
    items = collected.get(key)
    if items is None:
        items = collected[key] = []
        after_commit(lambda: then(items))
    if item not in items:
        items.append(item)


def after_rollback(callback: Callable[[], None]) -> None:
    """Run `callback` if the current unit of work is rolled back instead (file cleanup; it
    must not touch the session). Only a real rollback runs it: a unit of work that never
    wrote has nothing to roll back, so its owner cleans up itself as well."""
    db.session.info.setdefault(_AFTER_ROLLBACK, []).append(callback)


def commit() -> None:
    """Commit the unit of work and run what waited for it. Boundaries call this."""
    session = db.session
    session.commit()  # the one commit every boundary goes through
    session.info.pop(_AFTER_ROLLBACK, None)
    session.info.pop(_COLLECTED, None)
    for callback in session.info.pop(_AFTER, []):
        callback()


def transactional(work: Callable[P, R]) -> Callable[P, R]:
    """The boundary of a view or a job: commit when `work` returns, roll back when it raises."""

    @wraps(work)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            result = work(*args, **kwargs)
            commit()  # the boundary: the work returned
        except BaseException:
            db.session.rollback()  # a failed commit too: its after_rollback clean-up runs
            raise
        return result

    return wrapper


@event.listens_for(Session, "after_rollback")
def _forget_follow_ups(session: Session) -> None:
    session.info.pop(_AFTER, None)
    session.info.pop(_COLLECTED, None)
    for callback in session.info.pop(_AFTER_ROLLBACK, []):
        callback()

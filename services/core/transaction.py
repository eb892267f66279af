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

from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import ParamSpec, TypeVar

from sqlalchemy import event
from sqlalchemy.orm import Session, SessionTransaction

from extensions import db

P = ParamSpec("P")
R = TypeVar("R")

_AFTER = "dms.after_commit"
_AFTER_ROLLBACK = "dms.after_rollback"
_COLLECTED = "dms.collected"
_MEMO = "dms.memo"
_BEFORE = "dms.before_commit"


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


def before_commit_collect(key: str, item: object, then: Callable[[list], None]) -> None:
    """Add `item` to the unit of work's list under `key`; just before it commits (and before
    any after_commit callback), `then(list)` runs once for all of them, inside the unit of
    work: derived rows written once per batch, not once per change. A rollback forgets it."""
    collected = db.session.info.setdefault(_BEFORE, {})
    entry = collected.get(key)
    if entry is None:
        entry = collected[key] = ([], then)
    if item not in entry[0]:
        entry[0].append(item)


def uncollect(key: str, matches: Callable[[object], bool]) -> None:
    """Drop the items under `key` that `matches` from the before-commit list (a row being
    deleted needs no derived row written)."""
    entry = db.session.info.get(_BEFORE, {}).get(key)
    if entry is not None:
        entry[0][:] = [item for item in entry[0] if not matches(item)]


def after_rollback(callback: Callable[[], None]) -> None:
    """Run `callback` if the current unit of work is rolled back instead (file cleanup; it
    must not touch the session). Only a real rollback runs it: a unit of work that never
    wrote has nothing to roll back, so its owner cleans up itself as well."""
    db.session.info.setdefault(_AFTER_ROLLBACK, []).append(callback)


@contextmanager
def memoized() -> Iterator[None]:
    """Inside this scope, `memo` keeps what it read, until the scope exits or the unit of work
    ends (see memoize_until_commit)."""
    memoize_until_commit()
    try:
        yield
    finally:
        db.session.info.pop(_MEMO, None)


def memoize_until_commit() -> None:
    """From now until this unit of work commits or rolls back, `memo` keeps what it read: for
    batches (a bulk edit's, an import's) whose documents all ask the same question (which
    webhook endpoints want a document.updated). Only for work that does not change what the
    memoized reads read; a savepoint rolled back forgets them too."""
    db.session.info.setdefault(_MEMO, {})


def memo(key: Hashable, load: Callable[[], R]) -> R:
    """`load()`, kept under `key` while a `memoized` scope is open; outside one, `load()`."""
    kept = db.session.info.get(_MEMO)
    if kept is None:
        return load()
    if key not in kept:
        kept[key] = load()
    return kept[key]


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


@event.listens_for(Session, "before_commit")
def _run_before_commit(session: Session) -> None:
    if session.in_nested_transaction():
        return  # a savepoint's release: the unit of work goes on
    while collected := session.info.pop(_BEFORE, None):  # one may collect for another
        for items, then in collected.values():
            if items:
                then(items)


@event.listens_for(Session, "after_transaction_end")
def _forget_memo_at_end(session: Session, transaction: SessionTransaction) -> None:
    if transaction.parent is None:  # the unit of work ended (a savepoint's release does not)
        session.info.pop(_MEMO, None)


@event.listens_for(Session, "after_soft_rollback")
def _forget_memo(session: Session, *_) -> None:
    memos = session.info.get(_MEMO)
    if memos:
        memos.clear()


@event.listens_for(Session, "after_soft_rollback")
def _forget_follow_ups(session: Session, previous_transaction: SessionTransaction) -> None:
    # Any rollback of the unit of work, also of one that wrote nothing to the database yet
    # (its rows still pending in the session): what it collected is forgotten with it.
    if previous_transaction.parent is None:
        session.info.pop(_BEFORE, None)
        session.info.pop(_AFTER, None)
        session.info.pop(_COLLECTED, None)


@event.listens_for(Session, "after_rollback")
def _clean_up_after_rollback(session: Session) -> None:
    for callback in session.info.pop(_AFTER_ROLLBACK, []):
        callback()

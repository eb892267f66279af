"""services/core/transaction.py: what runs just before a unit of work commits, the memo of a
batch's repeated reads, and ids that sort in the order they were made."""

from __future__ import annotations

from sqlalchemy import text

from extensions import db
from models.base import new_id
from services.core import transaction


def test_collected_items_run_once_just_before_the_commit_not_at_a_savepoint(ctx):
    seen: list[list[str]] = []
    transaction.before_commit_collect("test.key", "a", seen.append)
    with db.session.begin_nested():
        transaction.before_commit_collect("test.key", "b", seen.append)
    transaction.before_commit_collect("test.key", "a", seen.append)  # once however often
    assert seen == []  # the savepoint's release ran nothing
    transaction.commit()
    assert seen == [["a", "b"]]
    transaction.commit()
    assert seen == [["a", "b"]]  # the next unit of work starts empty


def test_a_rollback_forgets_what_was_collected(ctx):
    seen: list[list[str]] = []
    db.session.execute(text("SELECT 1"))  # the unit of work has begun
    transaction.before_commit_collect("test.key", "a", seen.append)
    db.session.rollback()
    transaction.commit()
    assert seen == []


def test_uncollect_drops_matching_items(ctx):
    seen: list[list[str]] = []
    for item in ("keep", "drop"):
        transaction.before_commit_collect("test.key", item, seen.append)
    transaction.uncollect("test.key", lambda item: item == "drop")
    transaction.commit()
    assert seen == [["keep"]]


def test_what_runs_before_the_commit_may_collect_for_another_key(ctx):
    seen: list[list[str]] = []

    def first(items: list[str]) -> None:
        seen.append(items)
        transaction.before_commit_collect("test.second", "later", seen.append)

    transaction.before_commit_collect("test.first", "now", first)
    transaction.commit()
    assert seen == [["now"], ["later"]]


def test_memo_keeps_a_read_inside_its_scope_only(ctx):
    loads: list[int] = []

    def load() -> int:
        loads.append(1)
        return len(loads)

    assert transaction.memo("k", load) == 1
    assert transaction.memo("k", load) == 2  # outside a scope: read each time
    with transaction.memoized():
        assert transaction.memo("k", load) == 3
        assert transaction.memo("k", load) == 3
        with db.session.begin_nested():
            assert transaction.memo("k", load) == 3  # a savepoint's release keeps it
        try:
            with db.session.begin_nested():
                raise RuntimeError
        except RuntimeError:
            pass
        assert transaction.memo("k", load) == 4  # a rollback forgets it
        transaction.commit()
        assert transaction.memo("k", load) == 5  # the unit of work ended: so did the memo
        assert transaction.memo("k", load) == 6
    db.session.execute(text("SELECT 1"))  # a unit of work has begun
    transaction.memoize_until_commit()
    assert transaction.memo("k", load) == 7
    assert transaction.memo("k", load) == 7
    db.session.rollback()
    assert transaction.memo("k", load) == 8


def test_ids_made_in_one_millisecond_sort_in_the_order_made():
    ids = [new_id("evt") for _ in range(2000)]
    assert ids == sorted(ids)
    assert len(set(ids)) == len(ids)

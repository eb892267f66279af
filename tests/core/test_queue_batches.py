"""How a unit of work's new documents are grouped for batch jobs (extraction, thumbnails)."""

from __future__ import annotations

from services.core.queue import tenant_batches


def test_runs_of_one_tenant_are_cut_at_the_size_and_at_each_change_of_tenant():
    calls = [("t1", "a", 1), ("t1", "b", 2), ("t1", "c", 1), ("t2", "d", 1), ("t1", "e", 3)]

    assert tenant_batches(calls, 2) == [
        ("t1", [["a", 1], ["b", 2]]),
        ("t1", [["c", 1]]),
        ("t2", [["d", 1]]),
        ("t1", [["e", 3]]),
    ]
    assert tenant_batches([], 2) == []

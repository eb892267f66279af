"""Concurrent writers add up: the counters are upserts that add (never read, add, write), so
uploads committing at the same moment from several threads lose no count."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import clock
from tests.support import stored_document

T0 = datetime(2026, 11, 20, 9, 30, tzinfo=UTC)
THREADS = 4
EACH = 5


def test_uploads_from_several_threads_are_all_counted(app, tenant, summary, usage):
    clock.freeze(T0)
    barrier = threading.Barrier(THREADS)
    failures: list[BaseException] = []

    def uploader(n: int) -> None:
        try:
            barrier.wait()
            for i in range(EACH):
                stored_document(app, tenant.id, f"thread {n} file {i}".encode(), schedule=False)
        except BaseException as exc:  # reported below
            failures.append(exc)

    threads = [threading.Thread(target=uploader, args=(n,)) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    figures = summary()
    assert figures["documents"]["total"] == THREADS * EACH
    assert figures["documents"]["byContentType"] == {"text/plain": THREADS * EACH}
    expected_bytes = sum(len(f"thread {n} file {i}") for n in range(THREADS) for i in range(EACH))
    assert figures["storageBytes"] == expected_bytes
    points = usage(
        metric="uploads", **{"from": "2026-11-20T00:00:00Z", "to": "2026-11-21T00:00:00Z"}
    )
    assert points == [("2026-11-20T00:00:00Z", THREADS * EACH)]

"""Drop, then build, the PostgreSQL search indexes of a benchmark database, with a progress
bar, the build time and the size of each (both matter at 1M documents).

Loading a large corpus with the indexes in place maintains them row by row (RUM slowly); a
bulk load drops them first and builds them once at the end, as an operator restoring a large
tenant would. The indexes are the ones the migrations leave (0025-0028): GIN on the full
vector, on the rank vector, on its tiers and on its pairs of adjacent words; with `--rum`,
the opt-in RUM indexes on both (docs/search.md: postgrespro/rum#183 can crash the server).

    export DATABASE_URL=postgresql://postgres@127.0.0.1:5432/dms_bench_search_1m
    .venv/bin/python bench/search_indexes.py drop
    .venv/bin/python bench/generate_search_corpus.py --documents 1000000 ...
    .venv/bin/python bench/search_indexes.py build

Progress comes from pg_stat_progress_create_index, read from a second connection while the
CREATE INDEX runs."""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from pathlib import Path

import psycopg
from tqdm import tqdm

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from services.search.engines import postgres  # noqa: E402  (after the root is on the path)

TIER_INDEXES = tuple(map(postgres.tier_index, postgres.TIERS))  # migration 0027
SEARCH_INDEXES = (
    postgres.RUM_INDEX,
    postgres.RANK_GIN_INDEX,
    postgres.PAIRS_INDEX,  # migration 0028
    *TIER_INDEXES,
    postgres.SEARCH_RUM_INDEX,
    postgres.SEARCH_GIN_INDEX,
)


def _dsn() -> str:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        sys.exit("DATABASE_URL must point at the PostgreSQL benchmark database")
    return url.replace("postgresql+psycopg://", "postgresql://")


def _has_rum(conn) -> bool:
    return conn.execute("SELECT 1 FROM pg_extension WHERE extname = 'rum'").fetchone() is not None


def drop(conn) -> None:
    for name in SEARCH_INDEXES:
        conn.execute(f"DROP INDEX IF EXISTS {name}")
        print(f"dropped {name} (if it existed)")


def _watch(dsn: str, pid: int, bar: tqdm, done: threading.Event) -> None:
    """Move `bar` along the build's current phase (blocks of the table, then tuples)."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        while not done.wait(0.5):
            row = conn.execute(
                "SELECT phase, blocks_total, blocks_done, tuples_total, tuples_done"
                " FROM pg_stat_progress_create_index WHERE pid = %s",
                (pid,),
            ).fetchone()
            if row is None:
                continue
            phase, blocks_total, blocks_done, tuples_total, tuples_done = row
            total, current = (
                (blocks_total, blocks_done) if blocks_total else (tuples_total, tuples_done)
            )
            bar.set_description(phase[:40])
            if total:
                bar.total = total
                bar.n = current
                bar.refresh()


def build(conn, dsn: str, memory: str, rum: bool, only: list[str] | None = None) -> None:
    """Build the migrations' indexes (or the RUM ones, or those named `only`), each with a
    progress bar, its build time and its size."""
    if rum and not _has_rum(conn):
        sys.exit("--rum: the rum extension is not installed in this database")
    if only:
        indexes = only
    elif rum:
        indexes = [postgres.RUM_INDEX, postgres.SEARCH_RUM_INDEX]
    else:
        indexes = [
            postgres.RANK_GIN_INDEX,
            postgres.PAIRS_INDEX,
            *TIER_INDEXES,
            postgres.SEARCH_GIN_INDEX,
        ]
    conn.execute(f"SET maintenance_work_mem = '{memory}'")
    pid = conn.info.backend_pid
    for name in indexes:
        conn.execute(f"DROP INDEX IF EXISTS {name}")
        done = threading.Event()
        with tqdm(total=1, desc=name, unit="") as bar:
            watcher = threading.Thread(target=_watch, args=(dsn, pid, bar, done), daemon=True)
            watcher.start()
            started = time.perf_counter()
            conn.execute(postgres.index_ddl(name))
            seconds = time.perf_counter() - started
            done.set()
            watcher.join()
        size = conn.execute("SELECT pg_size_pretty(pg_relation_size(%s::regclass))", (name,))
        print(f"{name}: built in {seconds:.1f} s, {size.fetchone()[0]}")
    conn.execute("ANALYZE document_texts")
    table = conn.execute(
        "SELECT pg_size_pretty(pg_table_size('document_texts')),"
        " pg_size_pretty(pg_indexes_size('document_texts'))"
    ).fetchone()
    print(f"document_texts: table {table[0]}, all its indexes {table[1]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("drop", "build"))
    parser.add_argument("--maintenance-work-mem", default="1GB")
    parser.add_argument("--rum", action="store_true", help="the opt-in RUM indexes instead")
    parser.add_argument("--only", nargs="+", choices=SEARCH_INDEXES, help="build these alone")
    args = parser.parse_args()
    dsn = _dsn()
    with psycopg.connect(dsn, autocommit=True) as conn:
        if args.action == "drop":
            drop(conn)
        else:
            build(conn, dsn, args.maintenance_work_mem, args.rum, args.only)


if __name__ == "__main__":
    main()

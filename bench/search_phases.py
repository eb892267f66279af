"""Where a search request's time goes, in-process: each SQL statement's wall time, rows and
count per request, the Python around them, and (PostgreSQL, `--explain`) how much of each
statement is the planner's and how much the executor's, by EXPLAIN ANALYZE of the very
statements the requests sent.

It answers "which statement, and is it planning, executing or our Python?" before any change
is tried. It runs the app in this process (Flask test client, real database and Redis), so
the figures leave out gunicorn, HTTP and the client: bench/search_bench.py is the end-to-end
measure.
`--slowest N` lists the N slowest requests, each statement's ms in order: a class's tail
(its p99) is often a few queries that take another path. A statement's time runs from its
execute to its cursor's return: on SQLite a plan that streams its rows (no sort) does most of
its work while they are fetched, which this counts in "the rest", not in the statement.

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/dms_bench_search \\
    REDIS_URL=redis://127.0.0.1:6379/13 DMS_REDIS_PREFIX=bench-pg \\
        .venv/bin/python bench/search_phases.py --state instance/search-bench.json \\
        --class phrase --limit 50 --requests 200 --explain
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

from harness import percentile
from search_bench import CLASSES

ROOT = Path(__file__).resolve().parent.parent
LABEL_CHARS = 56  # of the statement, whitespace folded: enough to tell the statements apart


def _label(statement: str) -> str:
    return " ".join(statement.split())[:LABEL_CHARS]


class _Statements:
    """Wall time, rows and runs per statement, from the engine's cursor events; the
    statements of the request being recorded, for EXPLAIN."""

    def __init__(self, engine) -> None:
        from sqlalchemy import event

        self.wall: dict[str, float] = defaultdict(float)
        self.runs: dict[str, int] = defaultdict(int)
        self.rows: dict[str, int] = defaultdict(int)
        self.sent: list[tuple[str, object]] = []
        self.timed: list[tuple[str, float]] = []  # the request's statements, ms each
        self.on = False
        event.listen(engine, "before_cursor_execute", self._before)
        event.listen(engine, "after_cursor_execute", self._after)

    def _before(self, conn, cursor, statement, params, context, many) -> None:
        if self.on:  # not the replays of _explain, which run the same statements again
            conn.info["bench.started"] = time.perf_counter()
            self.sent.append((statement, params))

    def _after(self, conn, cursor, statement, params, context, many) -> None:
        if not self.on:
            return
        label, took = _label(statement), time.perf_counter() - conn.info["bench.started"]
        self.wall[label] += took
        self.timed.append((label, took * 1000))
        self.runs[label] += 1
        if cursor.rowcount >= 0:  # SQLite's driver does not count a SELECT's rows
            self.rows[label] += cursor.rowcount


def _explain(app, captured: list[list[tuple[str, object]]]) -> dict[str, tuple[list, list]]:
    """Planning and execution ms per statement label: each request's statements replayed in
    one transaction, in order, its planner settings run as they were and its other SELECTs
    under EXPLAIN; anything else (a key's last use) is skipped, and each transaction is rolled
    back."""
    from extensions import db

    found: dict[str, tuple[list, list]] = defaultdict(lambda: ([], []))
    with app.app_context(), db.engine.connect() as conn:
        for statements in captured:
            transaction = conn.begin()
            try:
                for statement, params in statements:
                    if "set_config(" in statement:
                        conn.exec_driver_sql(statement, params)
                    elif statement.lstrip().startswith("SELECT"):
                        explain = "EXPLAIN (ANALYZE, SUMMARY, FORMAT JSON) " + statement
                        plan = conn.exec_driver_sql(explain, params).scalar_one()[0]
                        planning, execution = found[_label(statement)]
                        planning.append(plan["Planning Time"])
                        execution.append(plan["Execution Time"])
            finally:
                transaction.rollback()
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--state", default="instance/search-bench.json")
    parser.add_argument(
        "--class", dest="kind", default="rare", help="a query class of search_bench.py, by prefix"
    )
    parser.add_argument("--limit", type=int, default=20)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=30)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--explain", action="store_true", help="PostgreSQL: plan vs execution")
    parser.add_argument("--explained", type=int, default=30, help="requests replayed to EXPLAIN")
    parser.add_argument(
        "--slowest",
        type=int,
        default=0,
        help="also list the N slowest requests, statement by statement",
    )
    args = parser.parse_args()
    kinds = [name for name in CLASSES if name.startswith(args.kind)]
    if len(kinds) != 1:
        raise SystemExit(f"--class must name one of: {', '.join(CLASSES)}")
    kind = kinds[0]

    os.environ.setdefault("DMS_LOG_LEVEL", "WARNING")
    sys.path.insert(0, str(ROOT))
    os.chdir(ROOT)
    from app import create_app
    from extensions import db

    state = json.loads((ROOT / args.state).read_text())
    app = create_app(commands=False)
    with app.app_context():
        engine = db.engine
    if args.explain and engine.dialect.name != "postgresql":
        raise SystemExit("--explain needs PostgreSQL")
    recorded = _Statements(engine)
    client = app.test_client()
    headers = {"Authorization": f"Bearer {state['key']}", "X-Tenant-Id": state["tenant"]}
    rng = random.Random(args.seed)

    asked: list[str] = []

    def ask() -> float:
        query = {"q": CLASSES[kind](state["vocabulary"], rng), "limit": args.limit}
        asked.append(query["q"])
        started = time.perf_counter()
        response = client.get("/api/v1/search", query_string=query, headers=headers)
        if response.status_code != 200:
            raise SystemExit(f"search {query} -> {response.status_code}: {response.data[:300]}")
        return (time.perf_counter() - started) * 1000

    for _ in range(args.warmup):
        ask()
    recorded.on = True
    captured, walls, slow = [], [], []
    cpu = time.process_time()
    for _ in range(args.requests):
        recorded.sent, recorded.timed = [], []
        walls.append(ask())
        slow.append((walls[-1], asked[-1], recorded.timed))
        if len(captured) < args.explained:
            captured.append(recorded.sent)
    cpu_ms = (time.process_time() - cpu) * 1000 / args.requests
    n = args.requests
    sql_ms = sum(recorded.wall.values()) * 1000 / n

    print(
        f"{kind}, page of {args.limit}, {n} requests in-process on "
        f"{engine.dialect.name} ({state['documents']} documents), load {os.getloadavg()[0]:.2f}"
    )
    print(
        f"request wall p50 {percentile(walls, 50):.1f} / p95 {percentile(walls, 95):.1f} ms; "
        f"mean {statistics.mean(walls):.1f} = SQL {sql_ms:.1f} + the rest "
        f"{statistics.mean(walls) - sql_ms:.1f}; CPU {cpu_ms:.1f} ms a request"
    )
    recorded.on = False  # the replays below are not the requests'
    explained = _explain(app, captured) if args.explain else {}
    print("| statement | ms a request | runs | rows a run | plan ms (median) | execute ms |")
    print("|---|---|---|---|---|---|")
    for label in sorted(recorded.wall, key=lambda key: -recorded.wall[key]):
        planning, execution = explained.get(label, ([], []))
        runs = recorded.runs[label]
        rows = f"{recorded.rows[label] / runs:.0f}" if label in recorded.rows else ""
        print(
            f"| `{label}` | {recorded.wall[label] * 1000 / n:.2f} | {runs / n:.2f} | "
            f"{rows} | "
            f"{f'{statistics.median(planning):.2f}' if planning else ''} | "
            f"{f'{statistics.median(execution):.2f}' if execution else ''} |"
        )

    for wall, q, timed in sorted(slow, key=lambda request: -request[0])[: args.slowest]:
        steps = ", ".join(f"`{label[:24]}` {ms:.1f}" for label, ms in timed)
        print(f"- {wall:.1f} ms `{q}`: {steps}")


if __name__ == "__main__":
    main()

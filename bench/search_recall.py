"""Recall of the bounded search path (PostgreSQL + RUM: a common word ranks only the nearest
CANDIDATES) against the exact ranking of every match, on the search benchmark's corpus.

For each query class of bench/search_bench.py (same seed, same queries), the first page is
computed twice in-process, by the bounded path and by the exact path, and recall is
|bounded page ∩ exact page| / |exact page|. Prints mean and minimum recall and how many of
the queries took the bounded path, per class and for several candidate counts.

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/dms_bench_search \\
    REDIS_URL=redis://127.0.0.1:6379/7 .venv/bin/python bench/search_recall.py --limit 20
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    from search_bench import CLASSES

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--state", default="instance/search-bench.json")
    parser.add_argument("--queries", type=int, default=40, help="per class")
    parser.add_argument("--limit", type=int, default=20)
    parser.add_argument("--candidates", default="1000", help="comma-separated counts")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    state = json.loads((ROOT / args.state).read_text())
    vocabulary = state["vocabulary"]

    from app import create_app
    from extensions import db
    from services.documents.filters import DocumentFilters
    from services.search import search
    from services.search.engines import postgres

    app = create_app(commands=False)
    rng = random.Random(args.seed)
    queries = {
        name: [make(vocabulary, rng) for _ in range(args.queries)] for name, make in CLASSES.items()
    }
    bounded_attempts = postgres.prepare

    def _settings_only(tenant_id, query, rows):  # the planner settings, no bounded attempt
        return bounded_attempts(tenant_id, query, rows) and ()

    with app.app_context():
        search.forget_path()
        if search.path() != "rum":
            raise SystemExit("no RUM index on this database: nothing to compare")

        def page(q: str, path: str) -> tuple[list[str], float]:
            postgres.prepare = bounded_attempts if path == "rum" else _settings_only
            started = time.perf_counter()
            hits = search.search(state["tenant"], q, DocumentFilters(), args.limit).hits
            elapsed = (time.perf_counter() - started) * 1000
            db.session.rollback()
            return [h.document.id for h in hits], elapsed

        exact = {q: page(q, "gin") for qs in queries.values() for q in qs}
        print(f"first page of {args.limit}, {args.queries} queries per class")
        print("| candidates | query class | bounded path taken | mean recall | min recall | "
              "p50 ms bounded / exact (in-process) |")  # fmt: skip
        print("|---|---|---|---|---|---|")
        for count in (int(c) for c in args.candidates.split(",")):
            postgres.CANDIDATES = count
            for name, qs in queries.items():
                recalls, times = [], []
                for q in qs:
                    ids, elapsed = page(q, "rum")
                    times.append(elapsed)
                    want = exact[q][0]
                    if not want:
                        continue
                    recalls.append(len(set(ids) & set(want)) / len(want))
                bounded = sum(1 for q in qs if _bounded(search, postgres, state, q, args.limit))
                print(
                    f"| {count} | {name} | {bounded}/{len(qs)} | "
                    f"{statistics.mean(recalls):.4f} | {min(recalls):.3f} | "
                    f"{statistics.median(times):.1f} / "
                    f"{statistics.median(exact[q][1] for q in qs):.1f} |"
                )
        postgres.prepare = bounded_attempts


def _bounded(search, postgres, state, q: str, limit: int) -> bool:
    """Whether the bounded path answers q's first page (enough candidates and rows)."""
    import clock
    from extensions import db
    from services.documents.filters import DocumentFilters
    from services.search import query_syntax

    query = query_syntax.parse(q)
    postgres.prepare(state["tenant"], query, limit + 1)
    stmt = postgres.ranked(
        state["tenant"], query, DocumentFilters(), clock.now(), True, bounded="nearest"
    )
    rows = search._page(stmt, None, None, limit)
    db.session.rollback()
    return bool(rows) and rows[0].window >= postgres.CANDIDATES and len(rows) > limit


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "bench"))
    main()

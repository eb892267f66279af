"""SQLite's listed common words, in-process: for common words drawn like bench/search_bench.py's
class (ranks 60-300 of the corpus vocabulary), one page of each through the three paths (the
listed matches, the 1,000 best by bm25, every match), checking they answer the same hits, and
which path proved each page (docs/search.md, "Common words on SQLite").

    DATABASE_URL=sqlite:///$PWD/instance/bench-search.sqlite3 REDIS_URL=redis://127.0.0.1:6379/11 \\
      .venv/bin/python bench/sqlite_common_words.py --state instance/search-bench-sqlite.json

`--recent` first sets one document's last change to now, in a transaction it rolls back at
the end (so the file is left as it was): a recency of 1 loosens every bound by up to 25 %."""

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

from sqlalchemy import text  # noqa: E402

import clock  # noqa: E402
from app import create_app  # noqa: E402
from extensions import db  # noqa: E402
from services.documents.filters import DocumentFilters  # noqa: E402
from services.search import search  # noqa: E402
from services.search.engines import sqlite  # noqa: E402

PATHS = {
    "listed": None,  # the engine's own attempts: the list, then the 1,000 best
    "best 1,000": lambda *_: ("candidates",),
    "every match": lambda *_: (),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--state", default="instance/search-bench-sqlite.json")
    parser.add_argument("--words", type=int, default=40)
    parser.add_argument("--limit", type=int, default=20)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--recent", action="store_true")
    args = parser.parse_args()
    state = json.loads((ROOT / args.state).read_text())
    rng = random.Random(args.seed)
    words = [rng.choice(state["vocabulary"][60:300]) for _ in range(args.words)]
    verdicts: list[tuple[str, bool]] = []
    stands, prepare = sqlite.page_stands, sqlite.prepare

    def recorded(tenant_id, query, rows, limit):
        verdict = stands(tenant_id, query, rows, limit)
        path = "listed" if rows and rows[0].window is None else "best 1,000"
        verdicts.append((path, verdict))
        return verdict

    sqlite.page_stands = recorded
    app = create_app()
    times: dict[str, list[float]] = {name: [] for name in PATHS}
    proven = {"listed": 0, "best 1,000": 0, "every match": 0}
    with app.app_context():
        if db.session.get_bind().dialect.name != "sqlite":
            raise SystemExit("SQLite only: DATABASE_URL=sqlite:///…")
        tenant = state["tenant"]
        if args.recent:
            db.session.execute(
                text(
                    "UPDATE documents SET updated_at = :now WHERE id ="
                    " (SELECT id FROM documents WHERE tenant_id = :tenant LIMIT 1)"
                ),
                {"now": clock.now().strftime("%Y-%m-%d %H:%M:%S.%f"), "tenant": tenant},
            )
        as_of = clock.now()
        for word in words:
            pages = {}
            for name, attempts in PATHS.items():
                sqlite.prepare = attempts or prepare
                verdicts.clear()
                started = time.perf_counter()
                page = search.search(
                    tenant, word, DocumentFilters(), args.limit, as_of=as_of,
                    with_highlights=False,
                )  # fmt: skip
                times[name].append(time.perf_counter() - started)
                pages[name] = [(hit.id, hit.score) for hit in page.hits]
                if name == "listed":
                    proven[next((path for path, ok in verdicts if ok), "every match")] += 1
            if len({tuple(p) for p in pages.values()}) != 1:
                raise SystemExit(f"the paths disagree on {word!r}")
        db.session.rollback()
    print(f"{len(words)} common words, pages of {args.limit}, recent document: {args.recent}")
    print("| path | median ms | p95 ms |\n|---|---|---|")
    for name, values in times.items():
        values.sort()
        p95 = values[min(len(values) - 1, int(len(values) * 0.95))]
        print(f"| {name} | {statistics.median(values) * 1000:.1f} | {p95 * 1000:.1f} |")
    print("pages proven by (the listed path's attempts):", proven)


if __name__ == "__main__":
    main()

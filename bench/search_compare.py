"""Whether two versions of the code return the same search hits, walked page by page, on one
corpus: the check that a faster ranking still returns what the API promises.

Starts gunicorn from each tree (a git worktree of the older commit, and this checkout) on the
same database, walks each query class of search_bench.py in both, and compares the hits' ids
in order. For example against 0dc4eda, a commit that ranked every match, with and without
the recency signal (bench/RESULTS.md):

    git worktree add /tmp/before 0dc4eda && ln -s "$PWD/.venv" /tmp/before/.venv
    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/dms_bench_search \\
    REDIS_URL=redis://127.0.0.1:6379/13 .venv/bin/python bench/search_compare.py \\
        --before /tmp/before --state instance/search-bench.json --limit 50 --pages 3

One change between them is a fix, not a ranking: 78376ac made an exclusion exclude from every
group of the query on PostgreSQL (`"x y" or z -w` had kept a document with the phrase and
`w`), as on SQLite and as docs/search.md says. On PostgreSQL a walk that differs is checked
against it: the older tree's hits less those holding the excluded word must be the newer
tree's first hits. Exit status 1 when any walk differs otherwise."""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import subprocess
import urllib.parse
from pathlib import Path

from harness import start_gunicorn
from search_bench import CLASSES

ROOT = Path(__file__).resolve().parent.parent


def start(tree: Path, port: int) -> subprocess.Popen:
    env = {**os.environ, "DMS_LOG_LEVEL": "WARNING"}
    return start_gunicorn("wsgi:app", port=port, env=env, tree=tree, log=subprocess.DEVNULL)


class Walker:
    def __init__(self, port: int, headers: dict, limit: int, pages: int, recency: bool):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.headers, self.limit, self.pages, self.recency = headers, limit, pages, recency

    def ids(self, q: str) -> list[str]:
        """The hits' ids of up to `pages` pages of `q`, following the cursor."""
        found: list[str] = []
        cursor = None
        for _ in range(self.pages):
            params = {"q": q, "limit": self.limit, "recency": str(self.recency).lower()}
            if cursor:
                params["cursor"] = cursor
            self.conn.request(
                "GET", "/api/v1/search?" + urllib.parse.urlencode(params), headers=self.headers
            )
            body = json.loads(self.conn.getresponse().read())
            if "data" not in body:
                raise SystemExit(f"{q!r}: {body}")
            found += [hit["document"]["id"] for hit in body["data"]]
            cursor = body["meta"]["pagination"].get("nextCursor")
            if not cursor:
                break
        return found


def explained_by_the_exclusion_fix(q: str, before: list[str], after: list[str]) -> bool:
    """78376ac (module docstring): `before` less the documents holding the excluded word is
    the start of `after`, and there were such documents."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgresql") or " -" not in q:
        return False
    import psycopg

    word = q.rsplit(" -", 1)[1]
    with psycopg.connect(url) as conn:
        holding = {
            row[0]
            for row in conn.execute(
                "SELECT document_id FROM document_texts WHERE document_id = ANY(%s)"
                " AND search_vector @@ plainto_tsquery('english', %s)",
                (before, word),
            )
        }
    kept = [ident for ident in before if ident not in holding]
    return bool(holding) and after[: len(kept)] == kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="the older tree")
    parser.add_argument("--after", type=Path, default=ROOT, help="the newer tree")
    parser.add_argument("--state", default="instance/search-bench.json")
    parser.add_argument("--limit", type=int, default=50)
    parser.add_argument("--pages", type=int, default=3)
    parser.add_argument("--queries", type=int, default=100, help="per query class")
    parser.add_argument("--recency", action="store_true", help="rank with the recency signal")
    parser.add_argument("--port", type=int, default=5201)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    state = json.loads((ROOT / args.state).read_text())
    headers = {"Authorization": f"Bearer {state['key']}", "X-Tenant-Id": state["tenant"]}
    servers = [start(args.before, args.port), start(args.after, args.port + 1)]
    try:
        before, after = (
            Walker(args.port + i, headers, args.limit, args.pages, args.recency) for i in (0, 1)
        )
        rng = random.Random(args.seed)
        print(f"limit {args.limit}, {args.pages} pages, recency {args.recency}")
        print("| query class | walks | hits | identical | the exclusion fix | different |")
        print("|---|---|---|---|---|---|")
        unexplained = 0
        for name, make in CLASSES.items():
            hits = same = fixed = differ = 0
            for _ in range(args.queries):
                q = make(state["vocabulary"], rng)
                old, new = before.ids(q), after.ids(q)
                hits += len(new)
                if old == new:
                    same += 1
                elif explained_by_the_exclusion_fix(q, old, new):
                    fixed += 1
                else:
                    differ += 1
                    print(f"  differs: {q!r} ({len(old)} / {len(new)} hits)")
            unexplained += differ
            print(f"| {name} | {args.queries} | {hits} | {same} | {fixed} | {differ} |")
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=30)
    raise SystemExit(1 if unexplained else 0)


if __name__ == "__main__":
    main()

"""Search latency through HTTP against the real server (gunicorn) on the generated corpus.

Starts gunicorn on the benchmark database, sends sequential GET /api/v1/search requests for
several query classes drawn from the corpus's Zipf vocabulary, and prints p50/p95/p99 per
class as a Markdown table (bench/RESULTS.md, section "Search", lists the exact commands).

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/dms_bench_search \\
    REDIS_URL=redis://127.0.0.1:6379/7 .venv/bin/python bench/search_bench.py --limit 20"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import time
from pathlib import Path

import requests
from harness import percentile, start_gunicorn

ROOT = Path(__file__).resolve().parent.parent
# Ranks in the corpus vocabulary (0-59 are English function words, mostly stop words).
CLASSES = {
    "common word (rank 60-300)": lambda v, r: r.choice(v[60:300]),
    "mid word (rank 300-3000)": lambda v, r: r.choice(v[300:3000]),
    "rare word (rank 3000-20000)": lambda v, r: r.choice(v[3000:20000]),
    "two words (rank 60-3000)": lambda v, r: f"{r.choice(v[60:3000])} {r.choice(v[60:3000])}",
    "phrase + exclusion": lambda v, r: (
        f'"{r.choice(v[60:200])} {r.choice(v[60:200])}" or '
        f"{r.choice(v[300:3000])} -{r.choice(v[60:300])}"
    ),
}


def start_server(port: int, workers: int, threads: int, log: Path) -> subprocess.Popen:
    env = {**os.environ, "DMS_LOG_LEVEL": "WARNING"}
    options = ["-w", str(workers), "--threads", str(threads)]
    return start_gunicorn("wsgi:app", port=port, env=env, options=options, log=log.open("w"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--state", default="instance/search-bench.json")
    parser.add_argument("--port", type=int, default=5077)
    parser.add_argument("--requests", type=int, default=200, help="per query class")
    parser.add_argument("--warmup", type=int, default=50)
    parser.add_argument("--limit", type=int, default=None, help="page size (default: API's)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    state = json.loads((ROOT / args.state).read_text())
    vocabulary = state["vocabulary"]
    rng = random.Random(args.seed)
    headers = {"Authorization": f"Bearer {state['key']}", "X-Tenant-Id": state["tenant"]}
    url = f"http://127.0.0.1:{args.port}/api/v1/search"
    extra = {"limit": args.limit} if args.limit else {}

    (ROOT / "bench/out").mkdir(exist_ok=True)
    server = start_server(args.port, args.workers, args.threads, ROOT / "bench/out/gunicorn.log")
    try:
        session = requests.Session()
        for _ in range(args.warmup):
            q = CLASSES["common word (rank 60-300)"](vocabulary, rng)
            session.get(url, params={"q": q, **extra}, headers=headers).raise_for_status()
        rows, overall = [], []
        for name, make in CLASSES.items():
            timings, hits = [], []
            for _ in range(args.requests):
                q = make(vocabulary, rng)
                started = time.perf_counter()
                response = session.get(url, params={"q": q, **extra}, headers=headers)
                timings.append((time.perf_counter() - started) * 1000)
                response.raise_for_status()
                hits.append(len(response.json()["data"]))
            overall += timings
            rows.append((name, timings, statistics.mean(hits)))
        rows.append(("all classes", overall, float("nan")))
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)

    print(f"documents: {state['documents']}, page size: {args.limit or 'default (50)'}, "
          f"gunicorn -w {args.workers} --threads {args.threads}, sequential client")  # fmt: skip
    print("| query class | n | p50 ms | p95 ms | p99 ms | mean hits/page |")
    print("|---|---|---|---|---|---|")
    for name, timings, mean_hits in rows:
        print(
            f"| {name} | {len(timings)} | {percentile(timings, 50):.1f} | "
            f"{percentile(timings, 95):.1f} | {percentile(timings, 99):.1f} | "
            f"{'' if mean_hits != mean_hits else f'{mean_hits:.1f}'} |"
        )


if __name__ == "__main__":
    main()

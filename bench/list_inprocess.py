"""CPU time of one documents-list request in-process (Flask test client), against a bare
Flask route returning fifty rows: the list's own cost without gunicorn, the client or the
scheduler of a shared machine in the figure. Real PostgreSQL (or SQLite) and Redis; uses a
database prepared by bench/list_bench.py (its tenant `bench-auth` and 300 documents) and an
API key of that tenant.

    export DATABASE_URL=postgresql://postgres@127.0.0.1:5432/dms_bench_list
    export REDIS_URL=redis://127.0.0.1:6379/12
    .venv/bin/python bench/list_inprocess.py "$(flask --app app keys create bench-auth \\
        --name cpu --scopes documents:read | tail -1)"

On a noisy machine, where the same code's CPU time moves by a third from one process to the
next, `--instructions` counts instead the instructions each request executes, under
valgrind's cachegrind (Debian's `valgrind`): the count of N requests less that of none, so
the app's start-up cancels out. Steady from run to run, but blind to what waiting costs
(a round trip to Redis or the database is a few thousand instructions and a cold cache), so
it complements the time, it does not replace it. About a minute per route.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIST = "/api/v1/documents?limit=50"
BARE = "/bare/rows"
WARM_UP = 50


def _client_and_headers(secret: str):
    os.environ.setdefault("DMS_LOG_LEVEL", "WARNING")
    os.environ.setdefault("DMS_LOG_JSON", "0")
    sys.path[:0] = [str(ROOT), str(ROOT / "bench")]
    from auth_overhead_app import create_bench_app

    app = create_bench_app()
    headers = {"Authorization": f"Bearer {secret}", "X-Tenant-Id": "bench-auth"}
    return app.test_client(), headers


def _timed(secret: str) -> None:
    client, headers = _client_and_headers(secret)
    for path, sent in ((LIST, headers), (BARE, {})):
        for _ in range(WARM_UP):
            assert client.get(path, headers=sent).status_code == 200
        cpu, wall = time.process_time(), time.perf_counter()
        for _ in range(500):
            client.get(path, headers=sent)
        print(
            f"{path}: CPU {(time.process_time() - cpu) * 2:.3f} ms/request, "
            f"wall {(time.perf_counter() - wall) * 2:.3f} ms"
        )


def _child(secret: str, path: str, requests: int) -> None:
    """What valgrind runs: the warm-up, then `requests` more."""
    client, headers = _client_and_headers(secret)
    sent = headers if path.startswith("/api/") else {}
    for _ in range(WARM_UP + requests):
        assert client.get(path, headers=sent).status_code == 200


def _instructions(secret: str, path: str, requests: int) -> int:
    command = [
        "valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
        sys.executable, __file__, secret, "--child", path, "--requests", str(requests),
    ]  # fmt: skip
    env = {**os.environ, "PYTHONHASHSEED": "0"}  # the same dict layouts in every run
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if found is None:
        raise SystemExit(f"no instruction count from valgrind:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def _counted(secret: str, requests: int) -> None:
    per_request = {}
    for path in (LIST, BARE):
        with ThreadPoolExecutor(2) as pool:  # the two runs of a route side by side
            runs = pool.map(lambda n, p=path: _instructions(secret, p, n), (requests, 0))
            with_requests, without = runs
        per_request[path] = (with_requests - without) / requests
        print(f"{path}: {per_request[path]:,.0f} instructions/request")
    print(f"ratio bare / list: {per_request[BARE] / per_request[LIST]:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("secret", help="an API key of the tenant bench-auth")
    parser.add_argument("--instructions", action="store_true", help="count, under valgrind")
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--child", metavar="PATH", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(args.secret, args.child, args.requests)
    elif args.instructions:
        _counted(args.secret, args.requests)
    else:
        _timed(args.secret)


if __name__ == "__main__":
    main()

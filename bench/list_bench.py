"""Documents list throughput against the framework's ceiling, measured in one run.

One gunicorn (gthread, 2 workers x 4 threads, keep-alive) serves bench/auth_overhead_app.py:
the real app, plus `/bare/rows`, a plain Flask app returning fifty document-shaped rows,
mounted in the same workers. After seeding documents through the API, closed-loop clients
(separate processes, so the client's GIL is not the limit) alternate timed rounds of
`GET /api/v1/documents?limit=50` and `GET /bare/rows`; the report gives each round, the
medians, and the ratio list / bare of the medians. Each round also reads the CPU time the
server side used (gunicorn workers and, on PostgreSQL, the bench database's backends) per
request: on a shared machine that figure moves much less with other load than req/s.
Target: the list at least 1,000 req/s on PostgreSQL with 2 workers, ratio at
least 0.25. Record `cat /proc/loadavg`.

    .venv/bin/python bench/list_bench.py \\
        --database-url postgresql://postgres@127.0.0.1:5432/dms_bench_list \\
        --redis-url redis://127.0.0.1:6379/12
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from auth_overhead import TENANT, _prepare, _start, seed_documents
from harness import free_port, percentile

ROOT = Path(__file__).resolve().parent.parent
LIST = "/api/v1/documents?limit=50"
BARE = "/bare/rows"


def _client(port: int, path: str, headers: dict, stop_at: float, out) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    latencies = []
    while time.monotonic() < stop_at:
        started = time.perf_counter()
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        response.read()
        if response.status != 200:
            raise SystemExit(f"GET {path} -> {response.status}")
        latencies.append((time.perf_counter() - started) * 1000)
    out.put(latencies)


def _cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time the processes have used (gone processes count zero)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / os.sysconf("SC_CLK_TCK")


def server_pids(master: int, database_url: str | None) -> dict[str, list[int]]:
    """The gunicorn workers and, on PostgreSQL, the backends serving the bench database:
    whose CPU a request costs on the server side (the machine is shared, so CPU time per
    request is the figure other work disturbs least)."""
    workers = [int(p) for p in Path(f"/proc/{master}/task/{master}/children").read_text().split()]
    backends: list[int] = []
    if database_url and database_url.startswith("postgres"):
        import psycopg
        from sqlalchemy.engine import make_url

        parsed = make_url(database_url)
        admin = parsed.set(database="postgres").render_as_string(False)
        with psycopg.connect(admin, autocommit=True) as conn:
            rows = conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s", (parsed.database,)
            ).fetchall()
        backends = [pid for (pid,) in rows]
    return {"workers": workers, "database": backends}


def run_round(
    port: int, path: str, headers: dict, clients: int, seconds: float, pids: dict[str, list[int]]
) -> dict:
    queue: multiprocessing.Queue = multiprocessing.Queue()
    cpu_before = {part: _cpu_seconds(members) for part, members in pids.items()}
    stop_at = time.monotonic() + seconds
    procs = [
        multiprocessing.Process(target=_client, args=(port, path, headers, stop_at, queue))
        for _ in range(clients)
    ]
    for proc in procs:
        proc.start()
    latencies = [ms for _ in procs for ms in queue.get()]
    for proc in procs:
        proc.join()
    cpu = {part: _cpu_seconds(members) - cpu_before[part] for part, members in pids.items()}
    per_request = {part: seconds * 1000 / max(1, len(latencies)) for part, seconds in cpu.items()}
    return {
        "rps": round(len(latencies) / seconds, 1),
        "server_cpu_ms_per_request": round(sum(per_request.values()), 3),
        "database_cpu_ms_per_request": round(per_request.get("database", 0.0), 3),
        "p50_ms": round(statistics.median(latencies), 2),
        "p99_ms": round(percentile(latencies, 99), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--redis-url", default=None)
    parser.add_argument("--documents", type=int, default=300)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=5.0, help="per round")
    parser.add_argument("--rounds", type=int, default=3, help="of each route, alternating")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args()
    import embedded_redis  # the project's root is on sys.path once run as a script

    with tempfile.TemporaryDirectory() as tmp:
        env, secret, _ = _prepare(args, Path(tmp), tokens=False)
        headers = {"Authorization": f"Bearer {secret}", "X-Tenant-Id": TENANT}
        port = free_port()
        server = _start(env, port, workers=args.workers, threads=args.threads)
        rounds: dict[str, list[dict]] = {"list": [], "bare": []}
        loads = []
        try:
            seed_documents(port, headers, args.documents)
            run_round(port, LIST, headers, args.clients, 1.0, {})  # warm both workers
            run_round(port, BARE, {}, args.clients, 1.0, {})
            pids = server_pids(server.pid, env["DATABASE_URL"])
            for _ in range(args.rounds):
                for name, path, sent in (("list", LIST, headers), ("bare", BARE, {})):
                    result = run_round(port, path, sent, args.clients, args.seconds, pids)
                    rounds[name].append(result)
                loads.append(Path("/proc/loadavg").read_text().split()[0])
        finally:
            server.terminate()
            server.wait()
            embedded_redis.stop(env["REDIS_URL"])
    medians = {name: statistics.median(r["rps"] for r in rs) for name, rs in rounds.items()}
    ratio = medians["list"] / medians["bare"]
    cpu = {
        name: statistics.median(r["server_cpu_ms_per_request"] for r in rs)
        for name, rs in rounds.items()
    }
    print(
        f"database: {env['DATABASE_URL'].split(':')[0]}, {args.documents} documents, "
        f"gunicorn gthread {args.workers} workers x {args.threads} threads, "
        f"{args.clients} client processes, {args.rounds} x {args.seconds:g} s per route"
    )
    for name, rs in rounds.items():
        cells = ", ".join(
            f"{r['rps']} req/s (p50 {r['p50_ms']} ms, {r['server_cpu_ms_per_request']} CPU ms"
            f" of which database {r['database_cpu_ms_per_request']})"
            for r in rs
        )
        print(f"  {name}: {cells}")
    print(
        f"  median list {medians['list']} req/s, bare {medians['bare']} req/s, "
        f"ratio {ratio:.3f}; 1-min load average after each round: {', '.join(loads)}"
    )
    print(
        f"  server CPU per request (workers + database backends), median: list "
        f"{cpu['list']} ms, bare {cpu['bare']} ms, ratio bare / list "
        f"{cpu['bare'] / cpu['list']:.3f}"
    )
    if args.json is not None:
        args.json.write_text(
            json.dumps({"rounds": rounds, "ratio": ratio, "cpu": cpu, "loads": loads})
        )


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()

"""Documents benchmark through HTTP against the real server (gunicorn, sync workers).

Measures: list p50/p95 for the first page and for a page after 500,000 rows (keyset) of the
1,000,000-document tenant; upload throughput for 1 MiB and 100 MiB files; and the peak RSS
of the web worker during a 1 GiB upload. Run bench/generate_documents.py first.

    .venv/bin/python bench/documents_bench.py \
        --database-url postgresql://postgres@127.0.0.1:5432/dms_bench
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

from harness import percentile, start_gunicorn

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TENANT = "bench-big"
SECRET_KEY = "bench-secret-key-not-for-production"  # noqa: S105  (bench only)
MIB = 1024 * 1024


def start_server(args, storage: str) -> subprocess.Popen:
    env = {
        **os.environ,
        "DATABASE_URL": args.database_url,
        "REDIS_URL": args.redis_url,
        "DMS_REDIS_PREFIX": "dms-bench",
        "SECRET_KEY": SECRET_KEY,
        "DMS_STORAGE_DIR": storage,
        "DMS_MAX_UPLOAD_BYTES": str(2 * 1024 * MIB),
        "DMS_LOG_JSON": "0",
        "DMS_LOG_LEVEL": "WARNING",
    }
    return start_gunicorn(
        "wsgi:app",
        port=args.port,
        env=env,
        options=["--workers", str(args.workers), "--timeout", "600"],
    )


def worker_pids(master: int) -> list[int]:
    path = Path(f"/proc/{master}/task/{master}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def rss_kib(pid: int, field: str = "VmRSS") -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def timed_gets(port: int, path: str, headers: dict, n: int) -> list[float]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    times = []
    for i in range(n + 5):
        started = time.perf_counter()
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        body = response.read()
        elapsed = (time.perf_counter() - started) * 1000
        if response.status != 200:
            raise SystemExit(f"GET {path} -> {response.status}: {body[:300]!r}")
        if i >= 5:  # warm-up
            times.append(elapsed)
        if response.getheader("Connection", "").lower() == "close":
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    return times


def deep_cursor(database_url: str, rows: int) -> str:
    """A real nextCursor for the page after `rows` rows (walking 2,500 pages would only
    measure the walk), signed with the server's key."""
    os.environ.update({"DATABASE_URL": database_url, "SECRET_KEY": SECRET_KEY})
    from app import create_app
    from extensions import db
    from services.core.cursors import binding_of, encode_cursor
    from services.documents import documents
    from services.documents.filters import position_of, sort_columns
    from services.documents.wire import DocumentListQuery

    app = create_app({"DMS_LOG_JSON": False})
    with app.test_request_context():
        query = DocumentListQuery()
        stmt = (
            db.select(documents.Document)
            .where(documents.Document.tenant_id == TENANT, documents.Document.status != "deleted")
            .order_by(*(c.desc() if d else c.asc() for c, d in sort_columns(query.sort)))
        )
        row = db.session.scalars(stmt.offset(rows - 1).limit(1)).one()
        binding = binding_of(TENANT, resource="documents", filters=query.binding())
        return encode_cursor(binding, position_of(row, query.sort))


def upload(port: int, headers: dict, size: int, tag: str) -> float:
    """Stream a multipart upload of `size` bytes, 1 MiB at a time; returns seconds."""
    boundary = uuid.uuid4().hex
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
        f'filename="{tag}.bin"\r\nContent-Type: application/octet-stream\r\n\r\n'
    ).encode()
    tail = f"\r\n--{boundary}--\r\n".encode()
    block = os.urandom(MIB)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    started = time.perf_counter()
    conn.putrequest("POST", "/api/v1/documents")
    for name, value in headers.items():
        conn.putheader(name, value)
    conn.putheader("Content-Type", f"multipart/form-data; boundary={boundary}")
    conn.putheader("Content-Length", str(len(head) + size + len(tail)))
    conn.endheaders()
    conn.send(head + tag.encode())  # the tag makes each upload's content unique
    sent = len(tag)
    while sent < size:
        chunk = block[: min(MIB, size - sent)]
        conn.send(chunk)
        sent += len(chunk)
    conn.send(tail)
    response = conn.getresponse()
    body = response.read()
    elapsed = time.perf_counter() - started
    if response.status != 201:
        raise SystemExit(f"upload -> {response.status}: {body[:300]!r}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default="postgresql://postgres@127.0.0.1:5432/dms_bench")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/8")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--skip-1gib", action="store_true")
    args = parser.parse_args()
    secret = (ROOT / "bench" / "out" / "bench-key").read_text().strip()
    headers = {"Authorization": f"Bearer {secret}", "X-Tenant-Id": TENANT}
    storage = tempfile.mkdtemp(prefix="dms-bench-storage-")
    results: dict[str, object] = {}
    server = start_server(args, storage)
    try:
        if not args.skip_1gib:
            peak = {"rss_kib": 0}
            timed_gets(args.port, "/api/v1/documents?limit=50", headers, 5)  # warm every worker
            pids = worker_pids(server.pid)
            baseline = max(rss_kib(p) for p in pids)

            def sample() -> None:
                for pid in pids:
                    peak["rss_kib"] = max(peak["rss_kib"], rss_kib(pid))

            sampler_stop = threading.Event()

            def sampler() -> None:
                while not sampler_stop.is_set():
                    sample()
                    time.sleep(0.02)

            thread = threading.Thread(target=sampler, daemon=True)
            thread.start()
            seconds = upload(args.port, headers, 1024 * MIB, "1GiB")
            sampler_stop.set()
            thread.join()
            results["upload_1GiB"] = {
                "seconds": round(seconds, 1),
                "MiB_per_s": round(1024 / seconds, 1),
                "worker_rss_before_MiB": round(baseline / 1024, 1),
                "worker_peak_rss_sampled_MiB": round(peak["rss_kib"] / 1024, 1),
                "worker_vmhwm_MiB": round(max(rss_kib(p, "VmHWM") for p in pids) / 1024, 1),
            }
        first = timed_gets(args.port, "/api/v1/documents?limit=50", headers, args.requests)
        cursor = deep_cursor(args.database_url, 500_000)
        deep = timed_gets(
            args.port, f"/api/v1/documents?limit=50&cursor={cursor}", headers, args.requests
        )
        for name, times in (("list_first_page", first), ("list_after_500k", deep)):
            results[name] = {
                "p50_ms": round(statistics.median(times), 2),
                "p95_ms": round(percentile(times, 95), 2),
                "n": len(times),
            }
        for label, size, count in (("1MiB", MIB, 30), ("100MiB", 100 * MIB, 3)):
            seconds = [upload(args.port, headers, size, f"{label}-{i}") for i in range(count)]
            total = sum(seconds)
            results[f"upload_{label}"] = {
                "uploads": count,
                "mean_s": round(total / count, 3),
                "MiB_per_s": round(size * count / MIB / total, 1),
            }
    finally:
        server.terminate()
        server.wait(timeout=30)
        shutil.rmtree(storage, ignore_errors=True)
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()

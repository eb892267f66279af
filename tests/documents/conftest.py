"""Fixtures for the documents tests: uploading through the real API."""

from __future__ import annotations

import io
import json

import pytest


@pytest.fixture
def upload(client, headers):
    """POST /api/v1/documents; returns the response. Extra headers via `extra_headers`."""

    def _upload(
        content: bytes = b"hello world\n",
        filename: str = "hello.txt",
        *,
        title: str | None = None,
        tags: list[str] | str | None = None,
        metadata: dict | str | None = None,
        extra_headers: dict | None = None,
        auth: dict | None = None,
        path: str = "/api/v1/documents",
    ):
        data: dict = {"file": (io.BytesIO(content), filename)}
        if title is not None:
            data["title"] = title
        if tags is not None:
            data["tags"] = tags
        if metadata is not None:
            data["metadata"] = metadata if isinstance(metadata, str) else json.dumps(metadata)
        return client.post(
            path,
            data=data,
            headers={**(auth or headers), **(extra_headers or {})},
            content_type="multipart/form-data",
        )

    return _upload


@pytest.fixture
def make_document(upload):
    """Upload and return the document's JSON (asserting 201)."""

    def _make(content: bytes = b"hello world\n", filename: str = "hello.txt", **kwargs) -> dict:
        response = upload(content, filename, **kwargs)
        assert response.status_code == 201, response.get_json()
        return response.get_json()["data"]

    return _make

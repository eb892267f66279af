"""Fixtures for the thumbnail tests: uploads through the real API, jobs run by the worker."""

from __future__ import annotations

import io

import pytest


@pytest.fixture
def upload(client, headers):
    """POST /api/v1/documents with `content`; the document's JSON (asserting 201)."""

    def _upload(content: bytes, filename: str, auth: dict | None = None) -> dict:
        response = client.post(
            "/api/v1/documents",
            data={"file": (io.BytesIO(content), filename)},
            headers=auth or headers,
            content_type="multipart/form-data",
        )
        assert response.status_code == 201, response.get_json()
        return response.get_json()["data"]

    return _upload


@pytest.fixture
def thumbnail(client, headers):
    """GET the document's thumbnail; the response."""

    def _get(document_id: str, auth: dict | None = None, **extra):
        return client.get(
            f"/api/v1/documents/{document_id}/thumbnail", headers={**(auth or headers), **extra}
        )

    return _get

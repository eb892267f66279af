"""Saved views fixtures: documents uploaded through the API, and saving a view through it."""

from __future__ import annotations

import io

import pytest


@pytest.fixture
def upload(client, headers):
    """POST /api/v1/documents with `tags`; the document's JSON."""

    def uploader(title: str, tags: list[str] | None = None, with_headers: dict | None = None):
        data: dict = {"file": (io.BytesIO(title.encode()), f"{title}.txt"), "title": title}
        if tags:
            data["tags"] = ",".join(tags)
        response = client.post(
            "/api/v1/documents",
            data=data,
            headers=with_headers or headers,
            content_type="multipart/form-data",
        )
        assert response.status_code == 201, response.get_json()
        return response.get_json()["data"]

    return uploader


@pytest.fixture
def save_view(client, headers):
    """POST /api/v1/saved-views with `headers` (the tenant's all-scopes key unless given)."""

    def saver(body: dict, with_headers: dict | None = None):
        return client.post("/api/v1/saved-views", json=body, headers=with_headers or headers)

    return saver

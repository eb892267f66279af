"""Fixtures for the copilot tests: indexed documents, asking through the real API, and a fake
OpenAI-compatible chat server on localhost that records what it received."""

from __future__ import annotations

import pytest

from tests.copilot.copilot_support import FakeLLM
from tests.support import run_jobs, stored_document

API = "/api/v1/copilot/conversations"


@pytest.fixture
def documents(app):
    """Store {"name": text} documents in a tenant and extract them; returns name -> id."""

    def factory(tenant, **texts: str) -> dict[str, str]:
        ids = {
            name: stored_document(app, tenant.id, text.encode(), f"{name}.txt", title=name)
            for name, text in texts.items()
        }
        run_jobs(app)
        return ids

    return factory


@pytest.fixture
def ask(client, headers):
    def call(
        message: str,
        expect: int | None = 201,
        *,
        conversation: str | None = None,
        auth: dict | None = None,
        **body,
    ):
        path = f"{API}/{conversation}/messages" if conversation else API
        response = client.post(path, json={"message": message, **body}, headers=auth or headers)
        if expect is not None:
            assert response.status_code == expect, response.get_json()
        return response

    return call


@pytest.fixture
def fake_llm():
    server = FakeLLM()
    yield server
    server.close()

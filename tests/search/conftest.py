"""Fixtures for search tests: indexed documents (stored, then extracted by a real RQ worker)
and a `find` helper that calls GET /api/v1/search."""

from __future__ import annotations

import pytest

from tests.jobs.support import run_jobs, stored_document


@pytest.fixture
def index_documents(app):
    """Store documents ({"text", "title", "tags", "meta", "filename"}) and index them."""
    with app.app_context():
        import jobs

        jobs.queue().empty()

    def factory(tenant, *specs: dict) -> list[str]:
        ids = []
        for spec in specs:
            spec = dict(spec)
            body = spec.pop("text", "").encode()
            filename = spec.pop("filename", "doc.txt")
            ids.append(stored_document(app, tenant.id, body, filename, **spec))
        run_jobs(app)
        return ids

    return factory


@pytest.fixture
def find(client, headers):
    def call(q: str | None = None, expect: int | None = 200, **params):
        if q is not None:
            params["q"] = q
        response = client.get("/api/v1/search", query_string=params, headers=headers)
        if expect is not None:
            assert response.status_code == expect, response.get_json()
        return response

    return call


def ids_of(response) -> list[str]:
    return [hit["document"]["id"] for hit in response.get_json()["data"]]

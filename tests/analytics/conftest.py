"""Analytics fixtures: the documents, webhooks and workflows fixtures (the figures are built
through their APIs), and readers of the aggregates as they are stored."""

from __future__ import annotations

import io

import pytest

from tests.documents.conftest import make_document, upload  # noqa: F401
from tests.webhooks.conftest import local_delivery, make_endpoint, receiver  # noqa: F401
from tests.workflows.conftest import flow, people  # noqa: F401

API = "/api/v1/analytics"


@pytest.fixture
def summary(client, headers):
    def read(auth: dict | None = None) -> dict:
        response = client.get(f"{API}/summary", headers=auth or headers)
        assert response.status_code == 200, response.get_json()
        return response.get_json()["data"]

    return read


@pytest.fixture
def usage(client, headers):
    """The points of GET /analytics/usage as [(at, value)]."""

    def read(auth: dict | None = None, **params) -> list[tuple[str, float]]:
        response = client.get(f"{API}/usage", query_string=params, headers=auth or headers)
        assert response.status_code == 200, response.get_json()
        return [(p["at"], p["value"]) for p in response.get_json()["data"]]

    return read


@pytest.fixture
def new_version(client, headers):
    def post(document_id: str, content: bytes, filename: str = "v.txt") -> dict:
        response = client.post(
            f"/api/v1/documents/{document_id}/versions",
            data={"file": (io.BytesIO(content), filename)},
            headers=headers,
            content_type="multipart/form-data",
        )
        assert response.status_code == 201, response.get_json()
        return response.get_json()["data"]

    return post


@pytest.fixture
def patch_document(client, headers):
    def patch(document_id: str, **fields) -> dict:
        response = client.patch(f"/api/v1/documents/{document_id}", json=fields, headers=headers)
        assert response.status_code == 200, response.get_json()
        return response.get_json()["data"]

    return patch


@pytest.fixture
def aggregates(app):
    """Every counter (both origins summed) and total of a tenant, as stored."""
    from collections import Counter

    from sqlalchemy import select

    from extensions import db
    from models import AnalyticsCounter, AnalyticsTotal

    def read(tenant_id: str) -> tuple[dict, dict]:
        with app.app_context():
            counters: Counter = Counter()
            for row in db.session.scalars(
                select(AnalyticsCounter).where(AnalyticsCounter.tenant_id == tenant_id)
            ):
                counters[(row.metric, row.dimension, row.granularity, row.bucket)] += row.value
            totals = {
                (row.metric, row.dimension): row.value
                for row in db.session.scalars(
                    select(AnalyticsTotal).where(AnalyticsTotal.tenant_id == tenant_id)
                )
            }
            return {k: v for k, v in counters.items() if v}, {k: v for k, v in totals.items() if v}

    return read

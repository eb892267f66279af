"""Matching fixtures: saving rules through the API, documents uploaded through the API and
read by the extraction job (so the rules run as they do in production: after the text is
stored, in their own job), and reading what the rules left (tags, metadata, audit entries,
events)."""

from __future__ import annotations

import io

import pytest
from sqlalchemy import select

from extensions import db
from models import AuditEntry, Document, Event
from services.matching import predictions
from tests.helpers import auth_headers

RULES = "/api/v1/matching-rules"


@pytest.fixture(autouse=True)
def _no_cached_models():
    predictions.forget()
    yield
    predictions.forget()


@pytest.fixture
def make_rule(client, headers):
    """POST a rule (`match` keys and `actions` as the API takes them); its data."""

    def make(name="rule", *, auth=None, status=201, order=0, enabled=True, actions=None, **match):
        body = {
            "name": name,
            "order": order,
            "enabled": enabled,
            "match": {"algorithm": "any", "pattern": "", **match},
            "actions": actions if actions is not None else {"addTags": [name]},
        }
        response = client.post(RULES, json=body, headers=auth or headers)
        assert response.status_code == status, response.get_json()
        return response.get_json()["data"] if status == 201 else response

    return make


@pytest.fixture
def upload(client, headers):
    """Upload a text document through the API; its id."""

    def send(text: str, filename: str = "file.txt", title: str | None = None, auth=None) -> str:
        data = {"file": (io.BytesIO(text.encode()), filename)}
        if title is not None:
            data["title"] = title
        response = client.post(
            "/api/v1/documents", data=data, headers=auth or headers,
            content_type="multipart/form-data",
        )  # fmt: skip
        assert response.status_code == 201, response.get_json()
        return response.get_json()["data"]["id"]

    return send


@pytest.fixture
def other_headers(other_tenant, create_key):
    return auth_headers(create_key(other_tenant)[1], other_tenant.id)


@pytest.fixture
def seen(app):
    """What the rules left on documents."""

    class Seen:
        def tags(self, document_id: str) -> list[str]:
            with app.app_context():
                return db.session.get(Document, document_id).tag_names

        def meta(self, document_id: str) -> dict:
            with app.app_context():
                return dict(db.session.get(Document, document_id).meta or {})

        def applied(self, tenant_id: str) -> list[tuple[str, str, dict]]:
            """(document, actor label, details) of each matching_rules.applied entry."""
            with app.app_context():
                rows = db.session.scalars(
                    select(AuditEntry)
                    .where(
                        AuditEntry.tenant_id == tenant_id,
                        AuditEntry.action == "matching_rules.applied",
                    )
                    .order_by(AuditEntry.seq)
                )
                return [(e.target_id, e.actor_label, dict(e.details)) for e in rows]

        def events(self, tenant_id: str, type_: str) -> list[dict]:
            with app.app_context():
                rows = db.session.scalars(
                    select(Event)
                    .where(Event.tenant_id == tenant_id, Event.type == type_)
                    .order_by(Event.id)
                )
                return [e.data for e in rows]

    return Seen()


def errors_of(response, status: int = 422) -> dict[str, str]:
    assert response.status_code == status, response.get_json()
    return {e.get("field"): e["message"] for e in response.get_json()["errors"]}

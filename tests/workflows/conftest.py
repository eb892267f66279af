"""Workflow fixtures: people with access tokens, a document, and helpers that define a
workflow, start it and act on it through the API, as integrators and approvers would."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from tests.helpers import bearer

API = "/api/v1/workflows"


@dataclass
class Flow:
    client: object
    key_headers: dict[str, str]
    token: Callable[[object], dict[str, str]]

    def define(self, steps: list[dict], name: str = "Invoice approval", headers=None) -> dict:
        response = self.client.post(
            API, json={"name": name, "steps": steps}, headers=headers or self.key_headers
        )
        assert response.status_code == 201, response.get_json()
        return response.get_json()["data"]

    def start(self, definition_id: str, document_id: str, headers=None):
        return self.client.post(
            f"{API}/instances",
            json={"definitionId": definition_id, "documentId": document_id},
            headers=headers or self.key_headers,
        )

    def act(self, instance_id: str, action: str, person, comment: str | None = None):
        body = {"comment": comment} if comment is not None else None
        return self.client.post(
            f"{API}/instances/{instance_id}/{action}", json=body, headers=self.token(person)
        )

    def get(self, instance_id: str) -> dict:
        response = self.client.get(f"{API}/instances/{instance_id}", headers=self.key_headers)
        assert response.status_code == 200, response.get_json()
        return response.get_json()["data"]


@pytest.fixture
def flow(app, client, tenant, headers) -> Flow:
    return Flow(client, headers, lambda person: bearer(app, tenant, person))


@pytest.fixture
def document_id(tenant, store_document) -> str:
    return store_document(tenant, b"invoice 42: 1,200 EUR", "invoice.txt")


@pytest.fixture
def people(tenant, create_user):
    """Three members and an admin, by first name."""
    return {
        name: create_user(tenant, role, email=f"{name}@acme.example")
        for name, role in (("ann", "member"), ("bob", "member"), ("cy", "member"), ("dee", "admin"))
    }


def approver_emails(instance: dict) -> list[str]:
    return [p["email"] for p in instance["currentApprovers"]]


def actions(instance: dict) -> list[tuple[str, int | None]]:
    return [(h["action"], h["step"]) for h in instance["history"]]

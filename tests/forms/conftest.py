"""Forms fixtures: a form made through the API (the same path an integrator takes) and a
schema with a field of each kind the public page renders."""

from __future__ import annotations

import pytest

EXPENSE_SCHEMA = {
    "type": "object",
    "required": ["name", "amount"],
    "additionalProperties": False,
    "properties": {
        "name": {"type": "string", "title": "Your name", "minLength": 1, "maxLength": 100},
        "amount": {"type": "integer", "title": "Amount", "minimum": 1, "description": "In euros"},
        "category": {"type": "string", "title": "Category", "enum": ["travel", "meals", "other"]},
        "spentOn": {"type": "string", "title": "Date", "format": "date"},
        "urgent": {"type": "boolean", "title": "Urgent"},
        "email": {"type": "string", "title": "Email", "format": "email"},
        "receipt": {"type": "string", "title": "Receipt", "format": "binary"},
    },
}


@pytest.fixture
def make_form(client, headers):
    """A form of `headers`' tenant made through the API; returns its JSON."""

    def factory(schema: dict | None = None, *, status: str = "published", **fields) -> dict:
        body = {"name": "Expense claim", "schema": schema or EXPENSE_SCHEMA, "status": status}
        response = client.post("/api/v1/forms", json={**body, **fields}, headers=headers)
        assert response.status_code == 201, response.get_json()
        return response.get_json()["data"]

    return factory


def errors_of(response) -> dict[str, str]:
    """{field: message} of an error response."""
    return {e.get("field"): e["message"] for e in response.get_json()["errors"]}

"""Custom fields fixtures: fields and documents made through the API (the path an integrator
takes), and a second tenant's key for the 404 and refusal checks."""

from __future__ import annotations

import io
import json

import pytest

from tests.helpers import auth_headers

URL = "/api/v1/custom-fields"


@pytest.fixture
def make_field(client, headers):
    """A field of `headers`' tenant; returns its JSON."""

    def factory(name: str, data_type: str = "string", auth: dict | None = None, **extra) -> dict:
        body = {"name": name, "dataType": data_type, **extra}
        response = client.post(URL, json=body, headers=auth or headers)
        assert response.status_code == 201, response.get_json()
        return response.get_json()["data"]

    return factory


@pytest.fixture
def make_doc(client, headers):
    """An uploaded document; `custom_fields` goes in the multipart `customFields` field."""

    def factory(title: str = "doc", auth: dict | None = None, custom_fields=None, **fields):
        data: dict = {"file": (io.BytesIO(f"{title}\n".encode()), "f.txt"), "title": title}
        if custom_fields is not None:
            data["customFields"] = json.dumps(custom_fields)
        data.update(fields)
        response = client.post(
            "/api/v1/documents",
            data=data,
            headers=auth or headers,
            content_type="multipart/form-data",
        )
        assert response.status_code == 201, response.get_json()
        return response.get_json()["data"]

    return factory


@pytest.fixture
def other_headers(other_tenant, create_key):
    return auth_headers(create_key(other_tenant)[1], other_tenant.id)


@pytest.fixture
def patch_values(client, headers):
    """PATCH /documents/{id} {"customFields": values}; returns the response."""

    def run(document_id: str, values: dict, auth: dict | None = None):
        return client.patch(  # the stdlib's encoder: it writes integers of any size
            f"/api/v1/documents/{document_id}",
            data=json.dumps({"customFields": values}),
            content_type="application/json",
            headers=auth or headers,
        )

    return run


def errors_of(response) -> dict[str, str]:
    return {e.get("field"): e["message"] for e in response.get_json()["errors"]}


def values_of(document: dict) -> dict[str, object]:
    return {item["fieldId"]: item["value"] for item in document["customFields"]}

"""The webhooks resource over HTTP: CRUD, validation (422 envelope), scopes, tenant
isolation (404), the secret shown once, rotation, the catalogue and pagination."""

from __future__ import annotations

import json

import pytest

from tests.helpers import auth_headers

URL = "https://hooks.example.com/dms"


def _create(client, headers, **body):
    return client.post(
        "/api/v1/webhooks", json={"url": URL, "events": ["*"], **body}, headers=headers
    )


def test_create_shows_the_secret_once_and_reads_back_without_it(client, headers):
    response = _create(client, headers, events=["document.created"], description="CRM")
    assert response.status_code == 201, response.json
    data = response.json["data"]
    assert data["id"].startswith("whk_")
    assert data["secret"].startswith("whsec_")
    assert data["events"] == ["document.created"]
    assert data["enabled"] is True and data["disabledReason"] is None
    assert response.headers["Location"].endswith(f"/api/v1/webhooks/{data['id']}")
    got = client.get(f"/api/v1/webhooks/{data['id']}", headers=headers).json["data"]
    assert "secret" not in got
    assert got["url"] == URL and got["description"] == "CRM"
    listed = client.get("/api/v1/webhooks", headers=headers).json
    assert [e["id"] for e in listed["data"]] == [data["id"]]
    assert all("secret" not in e for e in listed["data"])


def test_update_disable_enable_and_delete(client, headers):
    hook = _create(client, headers).json["data"]
    path = f"/api/v1/webhooks/{hook['id']}"
    patched = client.patch(
        path, json={"enabled": False, "events": ["api_key.revoked"]}, headers=headers
    )
    assert patched.status_code == 200, patched.json
    assert patched.json["data"]["enabled"] is False
    assert patched.json["data"]["disabledReason"]
    assert patched.json["data"]["events"] == ["api_key.revoked"]
    enabled = client.patch(path, json={"enabled": True}, headers=headers).json["data"]
    assert enabled["enabled"] is True and enabled["disabledReason"] is None
    assert client.delete(path, headers=headers).status_code == 200
    assert client.get(path, headers=headers).status_code == 404


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"url": "http://hooks.example.com/x"}, "url"),  # https required
        ({"url": "https://127.0.0.1/x"}, "url"),
        ({"url": "https://[::1]/x"}, "url"),
        ({"url": "https://10.0.0.1/x"}, "url"),
        ({"url": "https://169.254.169.254/latest"}, "url"),
        ({"url": "https://localhost/x"}, "url"),
        ({"url": "https://127.1/x"}, "url"),
        ({"url": "https://0x7f000001/x"}, "url"),
        ({"url": "https://017700000001/x"}, "url"),
        ({"url": "https://user:pw@hooks.example.com/x"}, "url"),
        ({"url": "ftp://hooks.example.com/x"}, "url"),
        ({"events": ["document.exploded"]}, "events"),
        ({"events": []}, "events"),
        ({"events": ["webhook.test"]}, "events"),
        ({"colour": "red"}, "colour"),
        ({"enabled": "maybe"}, "enabled"),
    ],
)
def test_bad_input_is_a_422_envelope_naming_the_field(client, headers, body, field):
    response = _create(client, headers, **body)
    assert response.status_code == 422, response.json
    assert response.json["success"] is False
    assert response.json["errors"][0]["code"] == "VALIDATION_ERROR"
    assert response.json["errors"][0]["field"] == field


def test_patch_validates_too(client, headers):
    hook = _create(client, headers).json["data"]
    path = f"/api/v1/webhooks/{hook['id']}"
    for body, field in (({"url": "https://10.1.2.3/"}, "url"), ({"events": None}, "events")):
        response = client.patch(path, json=body, headers=headers)
        assert response.status_code == 422, response.json
        assert response.json["errors"][0]["field"] == field
    for name in ("url", "enabled"):
        response = client.patch(path, json={name: None}, headers=headers)
        assert (response.status_code, response.json["errors"][0]["field"]) == (422, name)
    assert client.patch(path, json={"description": None}, headers=headers).status_code == 200


def test_the_patch_schema_says_only_description_may_be_null(client):
    schemas = client.get("/api/v1/openapi.json").json["components"]["schemas"]
    properties = schemas["WebhookPatch"]["properties"]
    nullable = {
        name for name, schema in properties.items() if {"type": "null"} in schema.get("anyOf", [])
    }
    assert nullable == {"description"}


def test_another_tenants_endpoint_is_a_404_everywhere(client, headers, other_tenant, create_key):
    hook = _create(client, headers).json["data"]
    other = auth_headers(create_key(other_tenant)[1], other_tenant.id)
    base = f"/api/v1/webhooks/{hook['id']}"
    for method, path in (
        ("get", base),
        ("patch", base),
        ("delete", base),
        ("post", f"{base}/rotate-secret"),
        ("post", f"{base}/test"),
        ("get", f"{base}/deliveries"),
        ("post", f"{base}/deliveries/dlv_00000000000000000000000000/retry"),
    ):
        kwargs = {"json": {"enabled": False}} if method == "patch" else {}
        response = getattr(client, method)(path, headers=other, **kwargs)
        assert response.status_code == 404, (method, path, response.json)
        assert response.json["errors"][0]["code"] == "NOT_FOUND"
    assert client.get("/api/v1/webhooks", headers=other).json["data"] == []
    assert client.get(base, headers=headers).json["data"]["enabled"] is True


def test_scopes(client, tenant, create_key):
    reader = auth_headers(create_key(tenant, ["webhooks:read"])[1], tenant.id)
    nobody = auth_headers(create_key(tenant, ["documents:read"])[1], tenant.id)
    refused = _create(client, reader)
    assert refused.status_code == 403
    assert refused.json["errors"][0]["code"] == "INSUFFICIENT_SCOPE"
    assert client.get("/api/v1/webhooks", headers=reader).status_code == 200
    assert client.get("/api/v1/webhooks", headers=nobody).status_code == 403
    assert client.get("/api/v1/webhooks/event-types", headers=nobody).status_code == 403


def test_rotate_secret_returns_a_new_secret_and_the_overlap(client, headers):
    hook = _create(client, headers).json["data"]
    rotated = client.post(f"/api/v1/webhooks/{hook['id']}/rotate-secret", headers=headers)
    assert rotated.status_code == 200, rotated.json
    data = rotated.json["data"]
    assert data["secret"].startswith("whsec_") and data["secret"] != hook["secret"]
    assert data["previousSecretExpiresAt"] is not None


def test_event_type_catalogue_has_a_sample_event_each(client, headers):
    response = client.get("/api/v1/webhooks/event-types", headers=headers)
    assert response.status_code == 200
    types = {t["type"]: t for t in response.json["data"]}
    for name in (
        "document.created",
        "document.updated",
        "document.deleted",
        "api_key.created",
        "api_key.rotated",
        "api_key.revoked",
        "api.deprecation_notice",
        "webhook.test",
    ):
        sample = types[name]["sample"]
        assert sample["type"] == name
        assert set(sample) == {"id", "type", "createdAt", "tenantId", "data"}
    assert response.json["meta"]["pagination"]["hasMore"] is False


def test_list_pages_with_a_cursor(client, headers):
    made = [_create(client, headers).json["data"]["id"] for _ in range(3)]
    first = client.get("/api/v1/webhooks?limit=2", headers=headers).json
    assert first["meta"]["pagination"]["hasMore"] is True
    cursor = first["meta"]["pagination"]["nextCursor"]
    second = client.get(f"/api/v1/webhooks?limit=2&cursor={cursor}", headers=headers).json
    seen = [e["id"] for e in first["data"] + second["data"]]
    assert seen == list(reversed(made))
    assert second["meta"]["pagination"]["hasMore"] is False
    bad = client.get("/api/v1/webhooks?cursor=nonsense", headers=headers)
    assert bad.status_code == 400 and bad.json["errors"][0]["code"] == "INVALID_CURSOR"


def test_api_key_lifecycle_is_delivered(app, receiver, make_endpoint, work, tenant, api_key):
    from extensions import db
    from models import ApiKey
    from services.core import transaction
    from services.core.actors import Actor
    from services.keys import api_keys

    make_endpoint(tenant, receiver.url(), ["api_key.created", "api_key.rotated", "api_key.revoked"])
    with app.app_context():
        key = db.session.get(ApiKey, api_key[0].id)
        api_keys.rotate_key(key, Actor.system("tests"))
        api_keys.revoke_key(key, Actor.system("tests"))
        api_keys.create_key(key.tenant, "new", ["webhooks:read"], Actor.system("tests"))
        transaction.commit()
    work()
    types = sorted(json.loads(r.body)["type"] for r in receiver.requests)
    assert types == ["api_key.created", "api_key.revoked", "api_key.rotated"]

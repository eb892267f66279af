"""Deprecation headers, 410 after the sunset, usage counting and the once-a-day notice."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

import clock
from tests.helpers import auth_headers


def _at(day: str) -> datetime:
    return datetime.fromisoformat(day).replace(tzinfo=UTC)


def test_a_deprecated_endpoint_answers_with_the_three_headers(
    client, headers, deprecated_documents_list
):
    clock.freeze(_at("2026-11-21T10:00:00"))

    response = client.get("/api/v1/documents", headers=headers)

    assert response.status_code == 200
    assert response.headers["Deprecation"] == f"@{int(_at('2026-06-01').timestamp())}"
    assert response.headers["Sunset"] == "Tue, 01 Jan 2030 00:00:00 GMT"
    link = response.headers["Link"]
    assert '<http://localhost/api/v1/search>; rel="successor-version"' in link
    assert '<http://localhost/docs/migrations/documents-list-test>; rel="deprecation"' in link


def test_other_endpoints_carry_no_deprecation_headers(client, headers):
    response = client.get("/api/v1/documents", headers=headers)

    assert response.status_code == 200
    assert "Deprecation" not in response.headers
    assert "Sunset" not in response.headers


def test_after_the_sunset_the_endpoint_answers_410(client, headers, deprecated_documents_list):
    clock.freeze(_at("2030-01-01T00:00:01"))

    response = client.get("/api/v1/documents", headers=headers)

    assert response.status_code == 410
    error = response.get_json()["errors"][0]
    assert error["code"] == "ENDPOINT_SUNSET"
    assert "/api/v1/search" in error["message"]
    assert 'rel="successor-version"' in response.headers["Link"]
    assert response.headers["Sunset"] == "Tue, 01 Jan 2030 00:00:00 GMT"
    assert "X-RateLimit-Limit" in response.headers


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/api/v1/entities"),
        ("POST", "/api/v1/entities"),
        ("GET", "/api/v1/entities/ent_123"),
        ("DELETE", "/api/v1/entities/ent_123"),
        ("GET", "/api/v1/entities/ent_123/neighbors"),
    ],
)
def test_entities_is_past_its_sunset(client, headers, method, path):
    clock.freeze(_at("2026-11-21T10:00:00"))

    response = client.open(path, method=method, headers=headers)

    assert response.status_code == 410
    body = response.get_json()
    assert body["success"] is False
    assert body["errors"][0]["code"] == "ENDPOINT_SUNSET"
    assert "/api/v1/knowledge-graph/entities" in body["errors"][0]["message"]
    assert response.headers["Sunset"] == "Thu, 01 Oct 2026 00:00:00 GMT"
    assert (
        '<http://localhost/api/v1/knowledge-graph/entities>; rel="successor-version"'
        in response.headers["Link"]
    )


def test_the_form_encoded_login_variant_is_registered():
    from services.lifecycle import deprecations

    form = deprecations.match("POST", "/api/v1/login", "application/x-www-form-urlencoded")
    assert form is not None
    assert form.sunset.isoformat() == "2027-01-01"
    assert deprecations.match("POST", "/api/v1/login", "application/json") is None
    assert deprecations.match("GET", "/api/v1/login", "application/x-www-form-urlencoded") is None


def test_the_form_encoded_login_carries_the_headers_and_json_does_not(client):
    clock.freeze(_at("2026-11-21T10:00:00"))

    form = client.post("/api/v1/login", data={"email": "a@example.com", "password": "x"})
    json = client.post("/api/v1/login", json={"email": "a@example.com", "password": "x"})

    assert form.headers["Sunset"] == "Fri, 01 Jan 2027 00:00:00 GMT"
    assert "Deprecation" in form.headers
    assert "Deprecation" not in json.headers


def test_each_use_is_counted_per_tenant_and_credential(app, client, tenant, create_key):
    _a, secret_a = create_key(tenant, name="ingest")
    key_b, secret_b = create_key(tenant, name="reports")
    clock.freeze(_at("2026-11-21T10:00:00"))
    for _ in range(3):
        client.get("/api/v1/entities", headers=auth_headers(secret_a, tenant.id))
    clock.shift(timedelta(hours=2))
    for _ in range(2):
        client.get("/api/v1/entities/ent_1", headers=auth_headers(secret_b, tenant.id))

    with app.app_context():
        from services.lifecycle import deprecations

        rows = {r.credential_label: r for r in deprecations.usage_for_tenant(tenant.id)}
    assert rows["ingest"].count == 3
    assert rows["reports"].count == 2
    assert rows["reports"].credential_id == key_b.id
    assert rows["reports"].first_used_at == _at("2026-11-21T12:00:00")
    assert rows["ingest"].last_used_at == _at("2026-11-21T10:00:00")
    assert rows["ingest"].item.id == "entities"


def test_the_notice_is_emitted_once_per_tenant_item_and_day(
    app, client, tenant, other_tenant, create_key
):
    _key, secret = create_key(tenant)
    _other_key, other_secret = create_key(other_tenant)
    clock.freeze(_at("2026-11-21T08:00:00"))
    for _ in range(3):
        client.get("/api/v1/entities", headers=auth_headers(secret, tenant.id))
    client.get("/api/v1/entities", headers=auth_headers(other_secret, other_tenant.id))
    clock.shift(timedelta(hours=15))  # 23:00, same day
    client.get("/api/v1/entities", headers=auth_headers(secret, tenant.id))
    clock.shift(timedelta(hours=2))  # the next day
    client.get("/api/v1/entities", headers=auth_headers(secret, tenant.id))

    with app.app_context():
        from extensions import db
        from models import Event

        notices = db.session.scalars(
            select(Event).where(Event.type == "api.deprecation_notice").order_by(Event.created_at)
        ).all()
        # The two tenants' first notices share their instant: their order is the database's.
        by_tenant = sorted((n.created_at, n.tenant_id) for n in notices)
        data = notices[0].data
    assert by_tenant == sorted(
        [
            (_at("2026-11-21T08:00:00"), tenant.id),
            (_at("2026-11-21T08:00:00"), other_tenant.id),
            (_at("2026-11-22T01:00:00"), tenant.id),
        ]
    )
    assert data["sunset"] == "2026-10-01"
    assert data["replacement"] == "/api/v1/knowledge-graph/entities"
    assert data["credential"]["id"].startswith("key_")
    assert data["item"] == "entities"


def test_beta_responses_name_their_tier(client, headers):
    response = client.get("/api/v1/beta/anything", headers=headers)

    assert response.headers["X-API-Tier"] == 'beta; stability-window="30 days"'
    assert "X-API-Tier" not in client.get("/api/v1/documents", headers=headers).headers


def test_internal_stays_closed_to_customer_credentials(client, headers):
    response = client.get("/internal/health", headers=headers)

    assert response.status_code == 404
    assert response.get_json()["errors"][0]["code"] == "NOT_FOUND"


def test_the_migration_guide_is_served(client):
    response = client.get("/docs/migrations/entities")

    assert response.status_code == 200
    assert b"/api/v1/knowledge-graph/entities" in response.data
    assert client.get("/docs/migrations/nothing").status_code == 404

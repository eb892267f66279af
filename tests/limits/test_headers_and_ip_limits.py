"""The rate-limit headers on every kind of API response, and the per-IP limits for callers
without a valid credential."""

from __future__ import annotations

import re
import time

import pytest

from tests.helpers import auth_headers

FIELDS = ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset")


def _assert_headers(response, limit: int):
    for name in FIELDS:
        assert re.fullmatch(r"[0-9]+", response.headers[name]), name
    assert response.headers["X-RateLimit-Limit"] == str(limit)
    reset = int(response.headers["X-RateLimit-Reset"])
    assert time.time() - 1 <= reset <= time.time() + 3601
    assert re.fullmatch(
        r'"hour";q=\d+;w=\d+, "burst";q=\d+;w=\d+', response.headers["RateLimit-Policy"]
    )
    assert re.fullmatch(r'"hour";r=\d+;t=\d+, "burst";r=\d+;t=\d+', response.headers["RateLimit"])


def test_success_carries_the_tenant_headers_and_no_retry_after(client, tenant, headers):
    response = client.get("/api/v1/documents", headers=headers)

    assert response.status_code == 200
    _assert_headers(response, 10_000)  # business plan
    assert response.headers["X-RateLimit-Remaining"] == "499"  # the burst binds first
    assert "Retry-After" not in response.headers
    assert response.headers["RateLimit-Policy"] == '"hour";q=10000;w=3600, "burst";q=500;w=60'
    assert response.headers["RateLimit"].startswith('"hour";r=9999;')


def test_remaining_counts_down_and_reset_is_when_it_grows(client, limited_tenant):
    _tenant, headers = limited_tenant(hourly=10, burst=10)
    first = client.get("/api/v1/documents", headers=headers)
    second = client.get("/api/v1/documents", headers=headers)

    assert first.headers["X-RateLimit-Remaining"] == "9"
    assert second.headers["X-RateLimit-Remaining"] == "8"
    # The hour window binds (its reset is later than the minute's at equal remainder).
    reset = int(first.headers["X-RateLimit-Reset"])
    assert time.time() + 3590 <= reset <= time.time() + 3601


def test_401_carries_the_headers_of_the_callers_ip(client):
    response = client.get("/api/v1/documents", headers=auth_headers("dms_nope", "acme"))

    assert response.status_code == 401
    _assert_headers(response, 600)
    assert "Retry-After" not in response.headers


def test_404_before_routing_carries_the_headers(client):
    response = client.get("/api/v1/no-such-thing")

    assert response.status_code == 404
    assert response.get_json()["errors"][0]["code"] == "NOT_FOUND"
    _assert_headers(response, 600)


def test_404_of_a_tenant_request_carries_the_tenants_headers(client, tenant, headers):
    response = client.get("/api/v1/documents/doc_missing", headers=headers)

    assert response.status_code in (404, 405)
    _assert_headers(response, 10_000)


def test_429_carries_the_headers(client, limited_tenant):
    _tenant, headers = limited_tenant(hourly=40, burst=1)
    client.get("/api/v1/documents", headers=headers)

    response = client.get("/api/v1/documents", headers=headers)

    assert response.status_code == 429
    _assert_headers(response, 40)
    assert response.headers["X-RateLimit-Remaining"] == "0"
    assert int(response.headers["Retry-After"]) == pytest.approx(
        int(response.headers["X-RateLimit-Reset"]) - time.time(), abs=1.5
    )


def test_a_path_no_route_matches_is_charged_to_the_callers_ip(client):
    """The limiter counts every API request, routed or not (api/limits.py counts the
    windows itself: Flask-Limiter's own check exempts requests without an endpoint)."""
    first = client.get("/api/v1/no-such-thing")
    second = client.get("/api/v1/no-such-thing")

    assert second.status_code == 404
    remaining = [int(r.headers["X-RateLimit-Remaining"]) for r in (first, second)]
    assert remaining[1] == remaining[0] - 1


def test_portal_pages_are_not_limited_and_carry_no_headers(client):
    response = client.get("/")

    assert "X-RateLimit-Limit" not in response.headers


def test_invalid_keys_are_limited_per_ip(make_app, tenant):
    app = make_app(DMS_RATE_LIMIT_IP_BURST=3)
    client = app.test_client()
    bad = auth_headers("dms_" + "x" * 43, tenant.id)

    statuses = [client.get("/api/v1/documents", headers=bad).status_code for _ in range(4)]

    assert statuses == [401, 401, 401, 429]
    body = client.get("/api/v1/documents", headers=bad).get_json()
    assert body["errors"][0]["code"] == "RATE_LIMIT_EXCEEDED"


def test_an_ip_over_its_anonymous_budget_still_serves_valid_keys(make_app, tenant, api_key):
    app = make_app(DMS_RATE_LIMIT_IP_BURST=2)
    client = app.test_client()
    for _ in range(3):
        client.get("/api/v1/documents")

    response = client.get("/api/v1/documents", headers=auth_headers(api_key[1], tenant.id))

    assert response.status_code == 200


def test_sign_in_endpoints_are_limited_more_tightly(make_app):
    app = make_app(DMS_RATE_LIMIT_SIGN_IN_BURST=2, DMS_RATE_LIMIT_IP_BURST=50)
    client = app.test_client()

    statuses = [
        client.post("/api/v1/login", json={"email": "a@b.c", "password": "x"}).status_code
        for _ in range(3)
    ]

    assert 429 not in statuses[:2]
    assert statuses[2] == 429
    assert client.get("/api/v1/documents").status_code == 401  # other paths unaffected

"""Per-plan bursts, the sliding hour, per-key quotas and the 429 of spec section 7."""

from __future__ import annotations

import re
import time

import pytest

from tests.helpers import auth_headers

PLAN_BURSTS = {"free": 20, "starter": 100, "business": 500}


def _exhaust(client, headers, count, path="/api/v1/documents"):
    statuses = [client.get(path, headers=headers).status_code for _ in range(count)]
    assert statuses == [200] * count
    return client.get(path, headers=headers)


def _assert_spec_429(response):
    assert response.status_code == 429
    assert response.mimetype == "application/json"
    retry_after = response.headers["Retry-After"]
    assert re.fullmatch(r"[1-9][0-9]*", retry_after)
    body = response.get_json()
    assert body["success"] is False
    assert len(body["errors"]) == 1
    error = body["errors"][0]
    assert error["code"] == "RATE_LIMIT_EXCEEDED"
    assert f"{retry_after} second" in error["message"]
    assert response.headers["X-RateLimit-Remaining"] == "0"


@pytest.mark.parametrize("plan", sorted(PLAN_BURSTS))
def test_each_plan_allows_its_burst_then_answers_429(client, create_tenant, create_key, plan):
    tenant = create_tenant(f"plan-{plan}", plan=plan)
    _key, secret = create_key(tenant)
    headers = auth_headers(secret, tenant.id)
    burst = PLAN_BURSTS[plan]

    refused = _exhaust(client, headers, burst)

    _assert_spec_429(refused)
    hourly = {"free": 100, "starter": 1000, "business": 10000}[plan]
    assert refused.headers["X-RateLimit-Limit"] == str(hourly)
    assert int(refused.headers["Retry-After"]) <= 60


def test_enterprise_limits_come_from_the_operator_command(client, limited_tenant):
    _tenant, headers = limited_tenant(hourly=50, burst=7)

    refused = _exhaust(client, headers, 7)

    _assert_spec_429(refused)
    assert refused.headers["X-RateLimit-Limit"] == "50"


def test_hourly_quota_is_enforced_independently_of_the_burst(client, limited_tenant):
    _tenant, headers = limited_tenant(hourly=5, burst=50)

    refused = _exhaust(client, headers, 5)

    _assert_spec_429(refused)
    # The hour is the binding window: the wait is the rest of the hour, not of a minute.
    assert int(refused.headers["Retry-After"]) > 60


def test_a_refused_request_is_not_charged(client, limited_tenant):
    _tenant, headers = limited_tenant(hourly=100, burst=3)
    _exhaust(client, headers, 3)
    for _ in range(5):
        assert client.get("/api/v1/documents", headers=headers).status_code == 429
    headers_now = client.get("/api/v1/documents", headers=headers).headers
    # Three requests counted in the hour, however many were refused.
    assert '"hour";r=97;' in headers_now["RateLimit"]


def test_key_quota_below_the_tenants_applies_to_that_key_only(client, limited_tenant, create_key):
    tenant, limited = limited_tenant(hourly=100, burst=100, quota=3)
    _other, other_secret = create_key(tenant)

    first = client.get("/api/v1/documents", headers=limited)
    assert first.headers["X-RateLimit-Limit"] == "3"
    assert first.headers["X-RateLimit-Remaining"] == "2"
    refused = _exhaust(client, limited, 2)

    _assert_spec_429(refused)
    other = client.get("/api/v1/documents", headers=auth_headers(other_secret, tenant.id))
    assert other.status_code == 200
    assert other.headers["X-RateLimit-Limit"] == "100"
    # The tenant's window counted the limited key's three accepted requests too.
    assert other.headers["X-RateLimit-Remaining"] == "96"


def test_a_key_quota_above_the_tenants_does_not_raise_it(client, limited_tenant):
    _tenant, headers = limited_tenant(hourly=4, burst=10, quota=1000)

    response = client.get("/api/v1/documents", headers=headers)

    assert response.headers["X-RateLimit-Limit"] == "4"


def test_a_key_has_windows_of_its_own_only_where_they_can_bind(
    app, client, create_tenant, create_key
):
    """A credential window as large as the tenant's never fills first, so it is not kept
    (business plan: 10,000 an hour, burst 500)."""
    from extensions import redis_store

    tenant = create_tenant("windows", plan="business")
    keys = {
        "plain": create_key(tenant),
        "below the burst": create_key(tenant, hourly_quota=10),
        "between": create_key(tenant, hourly_quota=1000),
    }
    for _key, secret in keys.values():
        response = client.get("/api/v1/documents", headers=auth_headers(secret, tenant.id))
        assert response.status_code == 200

    def windows(scope: str, ident: str) -> set[str]:
        with app.app_context():
            found = redis_store.client.scan_iter(match=f"*{scope}/{ident}/*", count=1000)
            return {name.decode().rsplit("/", 1)[1] for name in found}

    assert windows("tenant", tenant.id) == {"burst", "hour"}
    assert windows("credential", keys["plain"][0].id) == set()
    assert windows("credential", keys["below the burst"][0].id) == {"burst", "hour"}
    assert windows("credential", keys["between"][0].id) == {"hour"}


def test_the_tenant_window_is_shared_by_its_keys(client, limited_tenant, create_key):
    tenant, first = limited_tenant(hourly=100, burst=4)
    _key, secret = create_key(tenant)
    second = auth_headers(secret, tenant.id)

    for headers in (first, second, first, second):
        assert client.get("/api/v1/documents", headers=headers).status_code == 200

    _assert_spec_429(client.get("/api/v1/documents", headers=second))


def test_the_hour_slides_rather_than_resetting(short_windows, create_tenant, create_key):
    """Hour shortened to 2 s: requests leave the window one by one as they age past it."""
    app = short_windows(hour=2, burst=2)
    client = app.test_client()
    tenant = create_tenant("slider", plan="enterprise")
    with app.app_context():
        from extensions import db
        from models import Tenant
        from services.accounts import tenants
        from services.core.actors import Actor

        tenants.set_limits(db.session.get(Tenant, "slider"), Actor.cli(), hourly=4, burst=4)
        db.session.commit()
    _key, secret = create_key(tenant)
    headers = auth_headers(secret, tenant.id)

    for _ in range(2):
        assert client.get("/api/v1/documents", headers=headers).status_code == 200
    first_two_counted = time.monotonic()  # they were counted before this instant
    time.sleep(1.0)
    for _ in range(2):
        assert client.get("/api/v1/documents", headers=headers).status_code == 200
    refused = client.get("/api/v1/documents", headers=headers)
    _assert_spec_429(refused)

    # The first two age out 2 s after they were counted; the last two, counted at least a
    # second later, are still in the window.
    time.sleep(max(0.0, 2.05 - (time.monotonic() - first_two_counted)))
    assert client.get("/api/v1/documents", headers=headers).status_code == 200
    assert client.get("/api/v1/documents", headers=headers).status_code == 200
    _assert_spec_429(client.get("/api/v1/documents", headers=headers))

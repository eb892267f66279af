"""Usage counters: counted in memory during the request, written to Redis by a background
thread within a second, read back by the portal's charts."""

from __future__ import annotations

import logging
import time
from datetime import timedelta

import pytest

import clock
from services.limits import usage
from tests.helpers import auth_headers


def _stored(app, tenant_id: str, credential_id: str | None) -> int:
    from extensions import redis_store

    with app.app_context():
        value = redis_store.client.get(usage._hour_key(tenant_id, credential_id, clock.now()))
    return int(value or 0)


def test_requests_reach_redis_without_anyone_reading(app, client, tenant, api_key):
    key, secret = api_key
    for _ in range(3):
        client.get("/api/v1/documents", headers=auth_headers(secret, tenant.id))

    deadline = time.monotonic() + 10 * usage.FLUSH_SECONDS
    while _stored(app, tenant.id, key.id) < 3 and time.monotonic() < deadline:
        time.sleep(0.05)

    assert _stored(app, tenant.id, key.id) == 3
    assert _stored(app, tenant.id, None) == 3  # the tenant's total


def test_a_reader_in_the_same_process_sees_its_latest_counts(ctx, tenant):
    usage.record_request(tenant.id, "key_a")
    usage.record_request(tenant.id, "key_b")

    assert usage.last_hour(tenant.id) == 2
    assert usage.last_hour(tenant.id, "key_a") == 1
    assert [n for _, n in usage.minute_counts(tenant.id)][-1] == 2
    assert [n for _, n in usage.hourly_counts(tenant.id, "key_b")][-1] == 1


def test_counts_land_in_the_minute_they_were_made(ctx, tenant):
    clock.freeze(clock.now().replace(second=30))
    usage.record_request(tenant.id, "key_a")
    clock.shift(timedelta(seconds=60))
    usage.record_request(tenant.id, "key_a")
    usage.record_request(tenant.id, "key_a")

    assert [n for _, n in usage.minute_counts(tenant.id, "key_a", minutes=2)] == [1, 2]


def test_unreachable_redis_drops_the_counts_and_never_fails(make_app, tenant, caplog):
    app = make_app(REDIS_URL="redis://127.0.0.1:1/0")
    with app.app_context():
        usage.record_request(tenant.id, "key_a")
        with caplog.at_level(logging.WARNING, logger="dms.usage"):
            assert usage.flush() == 2  # the tenant's bucket and the key's
        assert "usage not recorded: ConnectionError (1 requests)" in caplog.text
        assert usage.flush() == 0  # dropped, not retried forever


def test_a_forked_child_does_not_write_its_parents_counts(ctx, tenant, monkeypatch):
    from flask import current_app

    usage.record_request(tenant.id, "key_a")
    pending = current_app.extensions["dms.usage"]
    monkeypatch.setattr(pending, "pid", -1)  # as seen from a child process

    assert usage.flush() == 0
    usage.record_request(tenant.id, "key_a")
    assert current_app.extensions["dms.usage"] is not pending
    assert usage.last_hour(tenant.id, "key_a") == 1


@pytest.fixture(autouse=True)
def _no_counts_left_behind(app):
    yield
    with app.app_context():
        usage.flush()

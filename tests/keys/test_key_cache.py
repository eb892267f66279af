"""Remembered API keys (services/keys/key_cache.py): no SQL for a key seen before, yet every
change made through the app is in force from the next request, in every process.

Two app objects on the same database and Redis stand in for two web processes."""

from __future__ import annotations

from sqlalchemy import text

from tests.helpers import auth_headers, user_token
from tests.support import statements

URL = "/api/v1/documents"
DEAD_REDIS = "redis://127.0.0.1:1/0"


def _key_reads(seen: list[str]) -> list[str]:
    return [s for s in seen if "WHERE api_keys.secret_hash" in s]


def _calls(app, client, headers, count: int = 2) -> list[list[str]]:
    """The SQL of each of `count` successive successful API calls."""
    per_call = []
    for _ in range(count):
        with statements(app) as seen:
            assert client.get(URL, headers=headers).status_code == 200
        per_call.append(seen)
    return per_call


def _revoke(app, key_id: str) -> None:
    from extensions import db
    from models import ApiKey
    from services.core.actors import Actor
    from services.keys.api_keys import revoke_key

    with app.app_context():
        revoke_key(db.session.get(ApiKey, key_id), Actor.system("tests"))
        db.session.commit()


def _error(response) -> str:
    return response.get_json()["errors"][0]["code"]


def test_a_key_seen_before_is_not_read_again(app, client, tenant, api_key):
    first, second = _calls(app, client, auth_headers(api_key[1], tenant.id))

    assert len(_key_reads(first)) == 1
    assert _key_reads(second) == []
    assert not [s for s in second if "FROM tenants" in s]


def test_lookups_are_counted_by_source_on_the_metrics_page(make_app, tenant, api_key):
    from services.keys import api_keys

    client = make_app().test_client()  # a fresh process: its own memory and counters
    headers = auth_headers(api_key[1], tenant.id)
    for _ in range(3):
        client.get(URL, headers=headers)
    client.get(URL, headers=auth_headers(api_keys.generate_secret(), tenant.id))

    metrics = client.get("/internal/metrics").get_data(as_text=True)

    assert 'dms_api_key_lookups_total{source="database"} 1.0' in metrics
    assert 'dms_api_key_lookups_total{source="remembered"} 2.0' in metrics
    assert 'dms_api_key_lookups_total{source="unknown"} 1.0' in metrics


def test_revocation_in_one_process_is_refused_by_another_at_once(app, make_app, tenant, api_key):
    key, secret = api_key
    serving = app.test_client()
    assert serving.get(URL, headers=auth_headers(secret, tenant.id)).status_code == 200

    _revoke(make_app(), key.id)  # the portal or CLI, elsewhere

    response = serving.get(URL, headers=auth_headers(secret, tenant.id))
    assert response.status_code == 401
    assert _error(response) == "API_KEY_REVOKED"


def test_quota_and_plan_changes_apply_from_the_next_request(app, make_app, tenant, create_key):
    from extensions import db
    from models import ApiKey, Tenant
    from services.accounts import tenants
    from services.core.actors import Actor
    from services.keys import api_keys

    key, secret = create_key(tenant)
    serving = app.test_client()
    headers = auth_headers(secret, tenant.id)
    assert serving.get(URL, headers=headers).headers["X-RateLimit-Limit"] == "10000"

    elsewhere = make_app()
    with elsewhere.app_context():
        api_keys.update_key(db.session.get(ApiKey, key.id), Actor.system("t"), hourly_quota=7)
        db.session.commit()
    assert serving.get(URL, headers=headers).headers["X-RateLimit-Limit"] == "7"

    with elsewhere.app_context():
        api_keys.update_key(db.session.get(ApiKey, key.id), Actor.system("t"), hourly_quota=None)
        tenants.set_limits(
            db.session.get(Tenant, tenant.id), Actor.system("t"), hourly=12345, burst=50
        )
        db.session.commit()
    assert serving.get(URL, headers=headers).headers["X-RateLimit-Limit"] == "12345"


def test_allowlist_change_applies_from_the_next_request(app, make_app, tenant, create_key):
    from extensions import db
    from models import ApiKey
    from services.core.actors import Actor
    from services.keys import api_keys

    key, secret = create_key(tenant)
    serving = app.test_client()
    headers = auth_headers(secret, tenant.id)
    assert serving.get(URL, headers=headers).status_code == 200

    with make_app().app_context():
        key_row = db.session.get(ApiKey, key.id)
        api_keys.update_key(key_row, Actor.system("t"), allowed_ips=["198.51.100.0/24"])
        db.session.commit()

    response = serving.get(URL, headers=headers)
    assert response.status_code == 403
    assert _error(response) == "IP_NOT_ALLOWED"


def test_sql_behind_the_apps_back_needs_a_flush(app, client, tenant, api_key):
    key, secret = api_key
    headers = auth_headers(secret, tenant.id)
    assert client.get(URL, headers=headers).status_code == 200
    from extensions import db

    with app.app_context():
        db.session.execute(
            text("UPDATE api_keys SET revoked_at = CURRENT_TIMESTAMP WHERE id = :id"),
            {"id": key.id},
        )
        db.session.commit()
    # The documented bound: remembered until a flush (or MAX_AGE seconds).
    assert client.get(URL, headers=headers).status_code == 200

    result = app.test_cli_runner().invoke(args=["keys", "flush-cache"])

    assert result.exit_code == 0, result.output
    assert _error(client.get(URL, headers=headers)) == "API_KEY_REVOKED"


def test_remembered_keys_expire_after_max_age(app, client, tenant, api_key, monkeypatch):
    from services.core import auth_generation

    headers = auth_headers(api_key[1], tenant.id)
    client.get(URL, headers=headers)
    monkeypatch.setattr(auth_generation, "MAX_AGE", 0.0)

    (seen,) = _calls(app, client, headers, count=1)

    assert len(_key_reads(seen)) == 1


def test_redis_forgetting_the_generation_forgets_the_keys(app, client, tenant, api_key):
    """Redis restarted empty: a new generation, never an old one coming back."""
    from extensions import redis_store

    headers = auth_headers(api_key[1], tenant.id)
    client.get(URL, headers=headers)
    with app.app_context():
        redis_store.client.delete(redis_store.key("auth", "generation"))

    seen, again = _calls(app, client, headers)

    assert len(_key_reads(seen)) == 1
    assert _key_reads(again) == []


def test_without_redis_every_request_reads_the_database(make_app, tenant, api_key):
    key, secret = api_key
    app = make_app(REDIS_URL=DEAD_REDIS)  # the limiter fails open
    client = app.test_client()
    headers = auth_headers(secret, tenant.id)

    with statements(app) as seen:
        assert client.get(URL, headers=headers).status_code == 200
        assert client.get(URL, headers=headers).status_code == 200
    assert len(_key_reads(seen)) == 2

    _revoke(app, key.id)
    assert _error(client.get(URL, headers=headers)) == "API_KEY_REVOKED"


def test_unknown_secrets_are_not_remembered(app, client, tenant):
    from services.keys import api_keys

    with app.app_context():
        entries = app.extensions.setdefault("dms.auth_memories", {}).setdefault("api-keys", {})
        before = len(entries)
    for _ in range(3):
        response = client.get(URL, headers=auth_headers(api_keys.generate_secret(), tenant.id))
        assert _error(response) == "INVALID_API_KEY"
    assert len(entries) == before


def test_an_access_token_seen_before_needs_no_sql(app, client, tenant, member):
    """The user, their tenant and the token family are remembered like a key: a second call
    to /me (which reads nothing itself) runs no SQL at all, whichever source names the
    tenant (the header, or the token's claim as the fourth source)."""
    token = user_token(app, member)
    for headers in (auth_headers(token, tenant.id), auth_headers(token)):
        per_call = []
        for _ in range(2):
            with statements(app) as seen:
                response = client.get("/api/v1/me", headers=headers)
                assert response.status_code == 200, response.get_json()
            per_call.append(seen)
        assert per_call[1] == [], per_call[1]


def test_a_remembered_caller_costs_one_round_trip_to_redis(app, client, tenant, api_key,
                                                             monkeypatch):  # fmt: skip
    """The auth generation's GET rides along with the rate limiter's pipeline
    (services/core/deferred_reads.py): one round trip for the request, not two."""
    from redis.connection import AbstractConnection

    headers = auth_headers(api_key[1], tenant.id)
    assert client.get(URL, headers=headers).status_code == 200  # remembered from now on
    sent = []
    original = AbstractConnection.send_packed_command

    def counted(connection, command, *args, **kwargs):
        # Not redis-py's health check: a PING on a pooled connection idle for more than
        # health_check_interval (extensions.py), once per 30 s at most, not per request.
        if b"".join(command) != b"*1\r\n$4\r\nPING\r\n":
            sent.append(command)
        return original(connection, command, *args, **kwargs)

    monkeypatch.setattr(AbstractConnection, "send_packed_command", counted)

    assert client.get(URL, headers=headers).status_code == 200
    assert len(sent) == 1, sent


def test_a_quota_lowered_below_the_count_refuses_the_next_request(app, make_app, tenant,
                                                                   create_key):  # fmt: skip
    """The request is counted under the quota remembered; the limiter's round trip shows the
    key changed, so it is counted again under the new one, and refused."""
    from extensions import db
    from models import ApiKey
    from services.core.actors import Actor
    from services.keys import api_keys

    key, secret = create_key(tenant)
    elsewhere = make_app()

    def set_quota(quota: int) -> None:
        with elsewhere.app_context():
            row = db.session.get(ApiKey, key.id)
            api_keys.update_key(row, Actor.system("t"), hourly_quota=quota)
            db.session.commit()

    set_quota(5)
    serving = app.test_client()
    headers = auth_headers(secret, tenant.id)
    for _ in range(3):
        assert serving.get(URL, headers=headers).headers["X-RateLimit-Remaining"] != "0"

    set_quota(2)

    response = serving.get(URL, headers=headers)
    assert response.status_code == 429
    assert response.headers["X-RateLimit-Limit"] == "2"


def test_an_assumed_generation_no_pipeline_carried_is_read_before_the_view(app, make_app):
    """When the limiter made no round trip (Redis failing, say), confirmed() reads the
    generation itself, and a change made meanwhile elsewhere is seen."""
    from services.core import auth_generation

    with app.app_context():
        last = auth_generation.current()
    with app.test_request_context(URL):
        with auth_generation.assuming():
            assert auth_generation.for_request() == last  # no round trip of its own
        with make_app().app_context():
            auth_generation.renew()  # another process changes a key meanwhile

        assert auth_generation.confirmed() is False
        assert auth_generation.for_request() not in (None, last)
        assert auth_generation.confirmed() is True  # asked once per request


def test_outside_identify_caller_the_generation_is_read_not_assumed(app, make_app):
    """Only api.auth's identification, which confirm_caller follows, may assume it."""
    from flask import g

    from services.core import auth_generation

    with app.app_context():
        auth_generation.current()
    with app.test_request_context(URL):
        with make_app().app_context():
            auth_generation.renew()
        with make_app().app_context():
            renewed = auth_generation.current()

        assert auth_generation.for_request() == renewed
        assert "deferred_reads" not in g
        assert auth_generation.confirmed() is True

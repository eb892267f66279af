"""API credentials: key shapes, revocation, allowlists, scopes, tokens and last-used bookkeeping."""

from __future__ import annotations

from datetime import timedelta

import pytest

import clock
from tests.helpers import auth_headers, user_token

URL = "/api/v1/documents"


def _error(response) -> str:
    body = response.get_json()
    assert body["success"] is False
    return body["errors"][0]["code"]


def test_no_credentials_is_unauthenticated(client, tenant):
    response = client.get(URL, headers={"X-Tenant-Id": tenant.id})
    assert response.status_code == 401
    assert _error(response) == "UNAUTHENTICATED"
    assert response.headers["WWW-Authenticate"] == 'Bearer realm="api", error="invalid_token"'


@pytest.mark.parametrize(
    "header",
    [
        "Basic dXNlcjpwYXNz",
        "Bearer",
        "Bearer ",
        "Bearer two tokens",
        "dms_only_the_key",
        "Bearer " + "x" * 5000,
    ],
)
def test_malformed_authorization_header(client, tenant, header):
    response = client.get(URL, headers={"Authorization": header, "X-Tenant-Id": tenant.id})
    assert response.status_code == 401
    assert _error(response) == "INVALID_API_KEY"
    assert response.content_type == "application/json"


@pytest.mark.parametrize(
    "secret",
    [
        "dms_short",
        "dms_" + "A" * 49,  # right shape, wrong checksum
        "sk_live_abcdef",
        "dms_" + "é" * 49,
    ],
)
def test_keys_of_the_wrong_shape(client, tenant, secret):
    response = client.get(URL, headers=auth_headers(secret, tenant.id))
    assert response.status_code == 401
    assert _error(response) == "INVALID_API_KEY"


def test_well_formed_but_unknown_key(client, tenant, app):
    from services.keys.api_keys import generate_secret

    response = client.get(URL, headers=auth_headers(generate_secret(), tenant.id))
    assert response.status_code == 401
    assert _error(response) == "INVALID_API_KEY"


def test_secret_is_only_stored_as_a_hash(app, api_key):
    key, secret = api_key
    from services.keys.api_keys import hash_secret

    assert key.secret_hash == hash_secret(secret)
    assert secret not in (key.secret_hash, key.secret_hint)
    assert secret.startswith("dms_") and len(secret) == 4 + 49


def test_revocation_is_immediate(client, app, tenant, api_key):
    key, secret = api_key
    assert client.get(URL, headers=auth_headers(secret, tenant.id)).status_code == 200
    from extensions import db
    from models import ApiKey
    from services.core.actors import Actor
    from services.keys.api_keys import revoke_key

    with app.app_context():
        revoke_key(db.session.get(ApiKey, key.id), Actor.system("tests"))
        db.session.commit()
    response = client.get(URL, headers=auth_headers(secret, tenant.id))
    assert response.status_code == 401
    assert _error(response) == "API_KEY_REVOKED"


def test_key_of_another_tenant_is_a_mismatch(client, tenant, other_tenant, create_key):
    _, secret = create_key(other_tenant)
    response = client.get(URL, headers=auth_headers(secret, tenant.id))
    assert response.status_code == 403
    assert _error(response) == "TENANT_MISMATCH"


def test_missing_scope_is_named(client, tenant, create_key):
    _, secret = create_key(tenant, scopes=["workflows:read"])
    response = client.get(URL, headers=auth_headers(secret, tenant.id))
    assert response.status_code == 403
    assert _error(response) == "INSUFFICIENT_SCOPE"
    assert "documents:read" in response.get_json()["errors"][0]["message"]


@pytest.mark.parametrize(
    ("allowlist", "caller", "status"),
    [
        (["203.0.113.0/24"], "203.0.113.77", 200),
        (["203.0.113.0/24"], "198.51.100.1", 403),
        (["203.0.113.5"], "203.0.113.5", 200),
        (["2001:db8::/32"], "2001:db8:1::42", 200),
        (["2001:db8::/32"], "2001:db9::1", 403),
        (["2001:db8::/32", "10.0.0.0/8"], "10.1.2.3", 200),
        (["10.0.0.0/8"], "::ffff:10.1.2.3", 200),  # IPv4-mapped IPv6
    ],
)
def test_ip_allowlist(client, tenant, create_key, allowlist, caller, status):
    _, secret = create_key(tenant, allowed_ips=allowlist)
    response = client.get(
        URL, headers=auth_headers(secret, tenant.id), environ_base={"REMOTE_ADDR": caller}
    )
    assert response.status_code == status
    if status == 403:
        assert _error(response) == "IP_NOT_ALLOWED"


def test_forwarded_for_is_ignored_without_trusted_proxies(client, tenant, create_key):
    _, secret = create_key(tenant, allowed_ips=["203.0.113.0/24"])
    response = client.get(
        URL,
        headers=auth_headers(secret, tenant.id, **{"X-Forwarded-For": "203.0.113.9"}),
        environ_base={"REMOTE_ADDR": "198.51.100.1"},
    )
    assert response.status_code == 403


def test_forwarded_for_counts_behind_a_trusted_proxy(make_app, tenant, create_key):
    app = make_app(DMS_TRUSTED_PROXY_COUNT=1)
    _, secret = create_key(tenant, allowed_ips=["203.0.113.0/24"])
    headers = auth_headers(secret, tenant.id, **{"X-Forwarded-For": "1.2.3.4, 203.0.113.9"})
    response = app.test_client().get(URL, headers=headers, environ_base={"REMOTE_ADDR": "10.0.0.2"})
    assert response.status_code == 200
    # A client-forged first hop does not help: the proxy's own entry is the one that counts.
    forged = auth_headers(secret, tenant.id, **{"X-Forwarded-For": "203.0.113.9, 1.2.3.4"})
    response = app.test_client().get(URL, headers=forged, environ_base={"REMOTE_ADDR": "10.0.0.2"})
    assert response.status_code == 403


def test_access_token_expires_after_an_hour(client, app, tenant, create_user):
    user = create_user(tenant, role="member")
    token = user_token(app, user, ["documents:read"])
    assert client.get(URL, headers=auth_headers(token)).status_code == 200
    clock.shift(timedelta(hours=1, seconds=1))
    response = client.get(URL, headers=auth_headers(token))
    assert response.status_code == 401
    assert _error(response) == "TOKEN_EXPIRED"


def test_tampered_token_is_invalid(client, app, tenant, create_user):
    from services.accounts.tokens import issue_access_token

    user = create_user(tenant, role="member")
    token = user_token(app, user, ["documents:read"])
    header, payload, signature = token.split(".")
    forged = f"{header}.{payload}.{signature[:-2]}AA"
    response = client.get(URL, headers=auth_headers(forged))
    assert response.status_code == 401
    assert _error(response) == "INVALID_TOKEN"
    other = issue_access_token(
        user, ["documents:read"], "another-secret", issuer="http://localhost", family_id="fam_x"
    )
    assert _error(client.get(URL, headers=auth_headers(other))) == "INVALID_TOKEN"


def test_token_of_a_deactivated_user_is_refused(client, app, tenant, create_user):
    from extensions import db
    from models import User
    from services.accounts.users import set_active
    from services.core.actors import Actor

    user = create_user(tenant, role="member")
    token = user_token(app, user, ["documents:read"])
    with app.app_context():
        set_active(db.session.get(User, user.id), False, Actor.system())
        db.session.commit()
    assert _error(client.get(URL, headers=auth_headers(token))) == "INVALID_TOKEN"


def test_last_used_is_coalesced_to_one_write_a_minute(client, app, tenant, api_key):
    from extensions import db
    from models import ApiKey, AuditEntry

    key, secret = api_key
    clock.freeze(clock.now())
    headers = auth_headers(secret, tenant.id)
    first_ip = {"REMOTE_ADDR": "192.0.2.1"}
    assert client.get(URL, headers=headers, environ_base=first_ip).status_code == 200

    def state():
        with app.app_context():
            row = db.session.get(ApiKey, key.id)
            used = db.session.query(AuditEntry).filter_by(action="api_key.used").count()
            return row.last_used_at, row.last_used_ip, used

    stamped, ip, used_entries = state()
    assert (ip, used_entries) == ("192.0.2.1", 1)
    clock.shift(timedelta(seconds=30))
    client.get(URL, headers=headers, environ_base={"REMOTE_ADDR": "192.0.2.2"})
    assert state() == (stamped, "192.0.2.1", 1)  # within the minute: no write
    clock.shift(timedelta(seconds=31))
    client.get(URL, headers=headers, environ_base={"REMOTE_ADDR": "192.0.2.3"})
    later, ip, used_entries = state()
    assert later > stamped and ip == "192.0.2.3" and used_entries == 1  # same day: no new entry
    clock.shift(timedelta(days=1))
    client.get(URL, headers=headers)
    assert state()[2] == 2


def test_every_api_route_is_public_or_scoped(app):
    """The one rule no route may forget: it declares scopes, needs a person, takes any
    credential (/me), or says it is public."""
    markers = ("api_scopes", "api_public", "api_user_required", "api_any_credential")
    unguarded = []
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/"):
            continue
        view = app.view_functions[rule.endpoint]
        if not any(getattr(view, marker, None) for marker in markers):
            unguarded.append(rule.rule)
    assert unguarded == []


def test_a_missing_credential_is_401_whatever_the_tenant_header_says(client):
    """Credential first: without one, an unknown or malformed tenant is not worth a 400."""
    for tenant_header in ("no-such-tenant", "!!"):
        response = client.get("/api/v1/documents", headers={"X-Tenant-Id": tenant_header})
        assert response.status_code == 401
        assert response.get_json()["errors"][0]["code"] == "UNAUTHENTICATED"

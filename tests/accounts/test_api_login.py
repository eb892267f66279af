"""POST /api/v1/login (JSON, and the deprecated form-encoded variant) and GET /api/v1/me
for each kind of credential (CONTRACT §4, §9)."""

from __future__ import annotations

from datetime import UTC, datetime

import clock
from tests.helpers import PASSWORD, audit_actions, auth_headers


def _login(client, tenant_id, email, password=PASSWORD, *, form=False):
    body = {"email": email, "password": password}
    headers = {"X-Tenant-Id": tenant_id}
    if form:
        return client.post("/api/v1/login", data=body, headers=headers)
    return client.post("/api/v1/login", json=body, headers=headers)


def test_json_login_returns_the_token_shape_and_is_audited(app, client, tenant, member):
    response = _login(client, tenant.id, member.email)

    assert response.status_code == 200, response.get_json()
    assert response.headers["Cache-Control"] == "no-store"
    token = response.get_json()["data"]
    assert token["token_type"] == "Bearer"
    assert token["expires_in"] == 3600
    assert token["access_token"].count(".") == 2 and token["refresh_token"]
    assert "documents:write" in token["scope"].split()
    assert "Deprecation" not in response.headers
    assert "user.login" in audit_actions(app, tenant.id)

    me = client.get("/api/v1/me", headers=auth_headers(token["access_token"], tenant.id))
    assert me.status_code == 200
    caller = me.get_json()["data"]
    assert (caller["type"], caller["id"], caller["email"]) == ("user", member.id, member.email)
    assert caller["role"] == "member" and caller["tenant"]["id"] == tenant.id


def test_a_wrong_password_is_401_and_its_audit_entry_is_kept(app, client, tenant, member):
    response = _login(client, tenant.id, member.email, "not the password")

    assert response.status_code == 401
    assert response.get_json()["errors"][0]["code"] == "INVALID_CREDENTIALS"
    # The failure is recorded although the request failed (not rolled back with it).
    assert "user.login_failed" in audit_actions(app, tenant.id)


def test_an_unknown_email_answers_like_a_wrong_password(client, tenant, member):
    unknown = _login(client, tenant.id, "nobody@acme.example")
    wrong = _login(client, tenant.id, member.email, "not the password")
    assert unknown.status_code == wrong.status_code == 401
    assert unknown.get_json()["errors"][0]["message"] == wrong.get_json()["errors"][0]["message"]


def test_login_needs_a_tenant_and_a_well_formed_body(client, tenant):
    no_tenant = client.post("/api/v1/login", json={"email": "a@acme.example", "password": "x"})
    assert no_tenant.status_code == 400
    assert no_tenant.get_json()["errors"][0]["code"] == "TENANT_REQUIRED"

    bad = client.post("/api/v1/login", json={"email": "a@acme.example"}, headers={
        "X-Tenant-Id": tenant.id})  # fmt: skip
    assert bad.status_code == 422
    assert bad.get_json()["errors"][0]["code"] == "VALIDATION_ERROR"


def test_the_deprecated_form_variant_answers_the_same_with_headers_and_counts(
    app, client, tenant, member
):
    clock.freeze(datetime(2026, 11, 21, 10, 0, tzinfo=UTC))
    response = _login(client, tenant.id, member.email, form=True)

    assert response.status_code == 200
    assert set(response.get_json()["data"]) == {
        "access_token", "token_type", "expires_in", "refresh_token", "scope"}  # fmt: skip
    assert response.headers["Sunset"] == "Fri, 01 Jan 2027 00:00:00 GMT"
    assert "Deprecation" in response.headers and "Link" in response.headers

    with app.app_context():
        from services.lifecycle import deprecations

        rows = deprecations.usage_for_tenant(tenant.id)
    assert [(r.item.id, r.credential_id, r.count) for r in rows] == [
        (rows[0].item.id, member.id, 1)
    ]
    assert rows[0].credential_kind == "user"


def test_me_answers_an_api_key(client, tenant, create_key):
    key, secret = create_key(tenant, scopes=["documents:read"], name="ingest")
    response = client.get("/api/v1/me", headers=auth_headers(secret, tenant.id))

    assert response.status_code == 200
    caller = response.get_json()["data"]
    assert (caller["type"], caller["id"]) == ("api_key", key.id)
    assert caller["scopes"] == ["documents:read"]
    assert caller.get("email") is None and caller["tenant"]["plan"] == tenant.plan


def test_me_without_a_credential_is_401(client, tenant):
    response = client.get("/api/v1/me", headers={"X-Tenant-Id": tenant.id})
    assert response.status_code == 401
    assert "WWW-Authenticate" in response.headers


def test_internal_domains_are_email_addresses(app, client, tenant):
    """Self-hosted teams use corp.local, .internal, .lan and .test addresses."""
    runner = app.test_cli_runner()
    for email in ("admin@acme.test", "jo@corp.local", "ops@dms.internal", "kim@office.lan"):
        result = runner.invoke(
            args=["users", "create", tenant.id, email, "--role", "member", "--password", PASSWORD]
        )
        assert result.exit_code == 0, result.output
        assert _login(client, tenant.id, email).status_code == 200

    refused = runner.invoke(args=["users", "create", tenant.id, "not-an-address", "--role",
                                  "member", "--password", PASSWORD])  # fmt: skip
    assert refused.exit_code != 0 and "not an email address" in refused.output

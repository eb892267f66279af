"""Passkeys (WebAuthn) through the API with a software authenticator
(tests/webauthn_authenticator.py): register with a user's token and sign in for tokens; what
is refused (replays, forged origins, another RP id, another challenge, a counter that went
back, API keys, another tenant's passkey, deactivated users) and that each outcome is audited.

The sign-in endpoints are limited per client address (10 a minute), so each test stays under
that or sets its passkeys up through the services."""

from __future__ import annotations

import os

import pytest

from tests.helpers import audit_actions, auth_headers, bearer
from tests.passkeys.passkey_support import (
    API,
    TOKEN_KEYS,
    audit_entries,
    options_for_sign_in,
    refused,
    register,
    registered,
    sign_in_with,
    stored_passkey,
)
from tests.webauthn_authenticator import SoftwareAuthenticator, b64url, unb64url

# --- the API: registration and sign-in -------------------------------------------------------


def test_register_then_sign_in_returns_tokens_and_both_are_audited(app, client, tenant, admin):
    headers = bearer(app, tenant, admin)
    authenticator = SoftwareAuthenticator()
    created = register(client, headers, authenticator, name="Work laptop")
    assert created.status_code == 201, created.get_json()
    passkey = created.get_json()["data"]
    assert passkey["name"] == "Work laptop" and passkey["id"].startswith("pkc_")
    assert passkey["transports"] == ["internal", "hybrid"] and passkey["lastUsedAt"] is None
    assert "publicKey" not in passkey and "signCount" not in passkey

    response, _ = sign_in_with(client, tenant.id, authenticator)
    assert response.status_code == 200, response.get_json()
    assert response.headers["Cache-Control"] == "no-store"
    tokens = response.get_json()["data"]
    assert set(tokens) == TOKEN_KEYS
    assert tokens["token_type"] == "Bearer" and tokens["expires_in"] == 3600
    assert "documents:write" in tokens["scope"].split()
    me = client.get("/api/v1/me", headers=auth_headers(tokens["access_token"]))
    assert me.status_code == 200
    assert me.get_json()["data"]["id"] == admin.id

    row = stored_passkey(app, authenticator)
    assert row.sign_count == 1 and row.last_used_at is not None
    assert row.credential_id == authenticator.id and row.user_id == admin.id
    (registered_entry,) = audit_entries(app, tenant.id, "passkey.registered")
    assert registered_entry.actor_id == admin.id and registered_entry.target_id == row.id
    (login,) = audit_entries(app, tenant.id, "user.login")
    assert login.details["method"] == "passkey" and login.target_id == admin.id


def test_registration_options_carry_the_configured_relying_party(app, client, tenant, admin):
    headers = bearer(app, tenant, admin)
    response = client.post(f"{API}/registration/options", headers=headers)
    options = response.get_json()["data"]["publicKey"]
    assert options["rp"] == {"id": "localhost", "name": "Document Management Service"}
    assert options["user"]["name"] == admin.email
    assert unb64url(options["user"]["id"]) == admin.id.encode()  # opaque, no email inside
    assert options["authenticatorSelection"]["userVerification"] == "preferred"
    assert options["attestation"] == "none" and options["timeout"] == 300_000
    assert len(unb64url(options["challenge"])) == 32


def test_challenges_live_in_redis_for_five_minutes_and_are_taken_once(app, client, tenant, admin):
    from extensions import redis_store

    headers = bearer(app, tenant, admin)
    data = client.post(f"{API}/registration/options", headers=headers).get_json()["data"]
    with app.app_context():
        ttl = redis_store.client.ttl(redis_store.key("passkey-challenge", data["challengeId"]))
    assert 290 <= ttl <= 300
    authenticator = SoftwareAuthenticator()
    body = {
        "challengeId": data["challengeId"],
        "credential": authenticator.create(data["publicKey"]),
    }
    assert client.post(f"{API}/registration/verify", headers=headers, json=body).status_code == 201
    again = client.post(f"{API}/registration/verify", headers=headers, json=body)
    assert again.get_json()["errors"][0]["field"] == "challengeId"
    refused(again, "expired or was already used")
    with app.app_context():
        assert not redis_store.client.exists(
            redis_store.key("passkey-challenge", data["challengeId"])
        )


def test_options_naming_an_email_list_only_that_persons_passkeys(
    app, client, tenant, admin, member
):
    mine = registered(app, admin)
    registered(app, member)
    allowed = options_for_sign_in(client, tenant.id, admin.email)["publicKey"]["allowCredentials"]
    assert [c["id"] for c in allowed] == [mine.id]
    assert allowed[0]["transports"] == ["internal", "hybrid"]
    # Discoverable: nobody's passkeys listed, the authenticator offers its own.
    assert options_for_sign_in(client, tenant.id)["publicKey"]["allowCredentials"] == []


def test_an_unknown_email_gets_the_same_made_up_passkey_each_time(app, client, tenant):
    first = options_for_sign_in(client, tenant.id, "nobody@acme.example")["publicKey"]
    second = options_for_sign_in(client, tenant.id, "Nobody@acme.example")["publicKey"]
    assert len(first["allowCredentials"]) == 1
    assert first["allowCredentials"][0]["id"] == second["allowCredentials"][0]["id"]
    assert first["challenge"] != second["challenge"]


def test_the_email_named_in_the_options_must_own_the_passkey(app, client, tenant, admin, member):
    member_key = registered(app, member)
    registered(app, admin)
    response, _ = sign_in_with(client, tenant.id, member_key, email=admin.email)
    refused(response, "does not sign anyone in")


# --- what is refused -------------------------------------------------------------------------


def test_a_replayed_verify_is_refused_and_audited(app, client, tenant, admin):
    authenticator = registered(app, admin)
    first, body = sign_in_with(client, tenant.id, authenticator)
    assert first.status_code == 200
    replay = client.post(
        f"{API}/authentication/verify", headers={"X-Tenant-Id": tenant.id}, json=body
    )
    refused(replay, "expired or was already used")
    (failure,) = audit_entries(app, tenant.id, "user.login_failed")
    assert failure.details["method"] == "passkey" and failure.target_id == admin.id
    assert "challenge" in failure.details["reason"]


def test_a_forged_origin_is_refused_at_sign_in_and_at_registration(app, client, tenant, admin):
    authenticator = registered(app, admin)
    response, _ = sign_in_with(client, tenant.id, authenticator, origin="https://evil.example")
    refused(response, "origin")
    (failure,) = audit_entries(app, tenant.id, "user.login_failed")
    assert "evil.example" in failure.details["reason"]
    assert stored_passkey(app, authenticator).sign_count == 0  # nothing was accepted

    other = SoftwareAuthenticator()
    created = register(client, bearer(app, tenant, admin), other, origin="https://evil.example")
    refused(created, "origin")
    assert stored_passkey(app, other) is None


def test_a_passkey_for_another_relying_party_is_refused(app, client, tenant, admin):
    authenticator = registered(app, admin)
    response, _ = sign_in_with(client, tenant.id, authenticator, rp_id="evil.example")
    refused(response, "RP id")
    created = register(
        client, bearer(app, tenant, admin), SoftwareAuthenticator(), rp_id="evil.example"
    )
    refused(created, "RP id")


def test_a_signature_over_another_challenge_is_refused(app, client, tenant, admin):
    authenticator = registered(app, admin)
    response, _ = sign_in_with(client, tenant.id, authenticator, challenge=b64url(os.urandom(32)))
    refused(response, "challenge")
    assert "user.login" not in audit_actions(app, tenant.id)


def test_a_bad_signature_is_refused(app, client, tenant, admin):
    authenticator = registered(app, admin)
    data = options_for_sign_in(client, tenant.id)
    credential = authenticator.get(data["publicKey"])
    impostor = SoftwareAuthenticator()  # same credential id, another private key
    impostor.credential_id, impostor.user_handle = authenticator.credential_id, admin.id.encode()
    credential["response"]["signature"] = impostor.get(data["publicKey"])["response"]["signature"]
    body = {"challengeId": data["challengeId"], "credential": credential}
    response = client.post(
        f"{API}/authentication/verify", headers={"X-Tenant-Id": tenant.id}, json=body
    )
    refused(response, "signature")


def test_a_counter_that_does_not_increase_is_refused_and_audited(app, client, tenant, admin):
    authenticator = registered(app, admin)
    first, _ = sign_in_with(client, tenant.id, authenticator)
    assert first.status_code == 200
    cloned, _ = sign_in_with(client, tenant.id, authenticator, counter=1)  # same count again
    refused(cloned, "counter")
    (failure,) = audit_entries(app, tenant.id, "user.login_failed")
    assert failure.details["reason"].startswith("sign counter did not increase (1 -> 1)")
    assert failure.details["passkeyId"] == stored_passkey(app, authenticator).id
    assert stored_passkey(app, authenticator).sign_count == 1


def test_an_authenticator_without_a_counter_signs_in_every_time(app, client, tenant, admin):
    authenticator = registered(app, admin, SoftwareAuthenticator(uses_counter=False))
    for _ in range(2):
        response, _ = sign_in_with(client, tenant.id, authenticator)
        assert response.status_code == 200, response.get_json()
    assert stored_passkey(app, authenticator).sign_count == 0


def test_an_api_key_cannot_register_a_passkey(app, client, tenant, headers):
    for step in ("options", "verify"):
        response = client.post(f"{API}/registration/{step}", headers=headers, json={})
        assert response.status_code == 403
        assert response.get_json()["errors"][0]["code"] == "USER_CONTEXT_REQUIRED"
    no_credential = client.post(f"{API}/registration/options", headers={"X-Tenant-Id": tenant.id})
    assert no_credential.status_code == 401


def test_another_tenants_user_cannot_sign_in_through_this_tenant(
    app, client, tenant, other_tenant, create_user
):
    outsider = create_user(other_tenant, "admin", email="boss@globex.example")
    authenticator = registered(app, outsider)
    response, _ = sign_in_with(client, tenant.id, authenticator)
    refused(response, "does not sign anyone in to this workspace")
    (failure,) = audit_entries(app, tenant.id, "user.login_failed")
    assert failure.details["knownUser"] is False and failure.target_id is None
    assert audit_entries(app, other_tenant.id, "user.login_failed") == []
    at_home, _ = sign_in_with(client, other_tenant.id, authenticator)
    assert at_home.status_code == 200


def test_a_deactivated_user_cannot_sign_in(app, client, tenant, admin, member):
    from extensions import db
    from models import User
    from services.accounts import users
    from services.core.actors import Actor

    authenticator = registered(app, member)
    with app.app_context():
        users.set_active(db.session.get(User, member.id), False, Actor("user", admin.id))
        db.session.commit()
    response, _ = sign_in_with(client, tenant.id, authenticator)
    refused(response)
    (failure,) = audit_entries(app, tenant.id, "user.login_failed")
    assert failure.details["reason"] == "user deactivated"


def test_no_tenant_is_400_tenant_required(client):
    for step in ("options", "verify"):
        response = client.post(f"{API}/authentication/{step}", json={})
        assert response.status_code in (400, 422)
    response = client.post(f"{API}/authentication/options", json={})
    assert response.status_code == 400
    assert response.get_json()["errors"][0]["code"] == "TENANT_REQUIRED"


@pytest.mark.parametrize(
    "credential",
    [
        {},
        {"id": "x", "rawId": "x", "type": "public-key", "response": {}},
        {
            "id": "!!",
            "rawId": "!!",
            "type": "public-key",
            "response": {"clientDataJSON": "e30", "authenticatorData": "AA", "signature": "AA"},
        },
        {
            "id": "AAAA",
            "rawId": "AAAA",
            "type": "password",
            "response": {"clientDataJSON": "e30", "authenticatorData": "AA", "signature": "AA"},
        },
    ],
)
def test_malformed_sign_in_bodies_are_422(app, client, tenant, credential):
    body = {"challengeId": "x" * 32, "credential": credential}
    response = client.post(
        f"{API}/authentication/verify", headers={"X-Tenant-Id": tenant.id}, json=body
    )
    assert response.status_code == 422, response.get_json()
    assert response.get_json()["errors"][0]["code"] == "VALIDATION_ERROR"


def test_well_formed_nonsense_is_400_never_500(app, client, tenant, admin):
    authenticator = registered(app, admin)
    data = options_for_sign_in(client, tenant.id)
    credential = authenticator.get(data["publicKey"])
    credential["response"].update(clientDataJSON=b64url(b"not json"), authenticatorData="AAAA")
    body = {"challengeId": data["challengeId"], "credential": credential}
    response = client.post(
        f"{API}/authentication/verify", headers={"X-Tenant-Id": tenant.id}, json=body
    )
    refused(response)
    options = client.post(f"{API}/registration/options", headers=bearer(app, tenant, admin))
    garbage = SoftwareAuthenticator().create(options.get_json()["data"]["publicKey"])
    garbage["response"]["attestationObject"] = b64url(b"\xa1\x01")
    body = {"challengeId": options.get_json()["data"]["challengeId"], "credential": garbage}
    created = client.post(
        f"{API}/registration/verify", headers=bearer(app, tenant, admin), json=body
    )
    refused(created)


def test_one_users_registration_challenge_does_not_serve_another(
    app, client, tenant, admin, member
):
    data = client.post(f"{API}/registration/options", headers=bearer(app, tenant, admin))
    data = data.get_json()["data"]
    body = {
        "challengeId": data["challengeId"],
        "credential": SoftwareAuthenticator().create(data["publicKey"]),
    }
    response = client.post(
        f"{API}/registration/verify", headers=bearer(app, tenant, member), json=body
    )
    refused(response, "expired or was already used")


def test_the_same_authenticator_registers_once(app, client, tenant, admin):
    authenticator = registered(app, admin)
    headers = bearer(app, tenant, admin)
    data = client.post(f"{API}/registration/options", headers=headers).get_json()["data"]
    assert [c["id"] for c in data["publicKey"]["excludeCredentials"]] == [authenticator.id]
    body = {
        "challengeId": data["challengeId"],
        "credential": authenticator.create(data["publicKey"]),
    }
    response = client.post(f"{API}/registration/verify", headers=headers, json=body)
    assert response.status_code == 409


def test_passkey_endpoints_are_in_the_openapi_document(client):
    paths = client.get("/api/v1/openapi.json").get_json()["paths"]
    for step in ("registration/options", "registration/verify"):
        assert "security" not in paths[f"{API}/{step}"]["post"]
    for step in ("authentication/options", "authentication/verify"):
        assert paths[f"{API}/{step}"]["post"]["security"] == []

"""Helpers of the passkey tests: registering and signing in with a
software authenticator (tests/webauthn_authenticator.py) through the API, and reading back
what was stored and audited."""

from __future__ import annotations

from tests.webauthn_authenticator import SoftwareAuthenticator

API = "/api/v1/auth/passkeys"
TOKEN_KEYS = {"access_token", "token_type", "expires_in", "refresh_token", "scope"}


def register(client, headers, authenticator, name=None, **forged):
    """Both registration calls; returns the verify response."""
    options = client.post(f"{API}/registration/options", headers=headers)
    assert options.status_code == 200, options.get_json()
    data = options.get_json()["data"]
    body = {
        "challengeId": data["challengeId"],
        "credential": authenticator.create(data["publicKey"], **forged),
    }
    if name is not None:
        body["name"] = name
    return client.post(f"{API}/registration/verify", headers=headers, json=body)


def options_for_sign_in(client, tenant_id, email=None) -> dict:
    body = {"email": email} if email else {}
    response = client.post(
        f"{API}/authentication/options", headers={"X-Tenant-Id": tenant_id}, json=body
    )
    assert response.status_code == 200, response.get_json()
    return response.get_json()["data"]


def sign_in_with(client, tenant_id, authenticator, email=None, **forged):
    """Both sign-in calls; returns (the verify response, the body it sent)."""
    data = options_for_sign_in(client, tenant_id, email)
    body = {
        "challengeId": data["challengeId"],
        "credential": authenticator.get(data["publicKey"], **forged),
    }
    response = client.post(
        f"{API}/authentication/verify", headers={"X-Tenant-Id": tenant_id}, json=body
    )
    return response, body


def registered(app, user, authenticator=None, name="Laptop") -> SoftwareAuthenticator:
    """A passkey set up through the services (saves the sign-in endpoints' budget)."""
    from extensions import db
    from models import User
    from services.core.actors import Actor
    from services.passkeys import ceremonies

    authenticator = authenticator or SoftwareAuthenticator()
    with app.test_request_context():
        row = db.session.get(User, user.id)
        options = ceremonies.registration_options(row)
        credential = authenticator.create(options["publicKey"])
        ceremonies.register(row, options["challengeId"], credential, name, Actor.system("tests"))
        db.session.commit()
    return authenticator


def refused(response, words: str | None = None) -> dict:
    body = response.get_json()
    assert response.status_code == 400, body
    assert body["success"] is False and "data" not in body
    assert body["errors"][0]["code"] == "INVALID_PASSKEY"
    if words:
        assert words in body["errors"][0]["message"]
    return body


def audit_entries(app, tenant_id, action):
    from sqlalchemy import select

    from extensions import db
    from models import AuditEntry

    with app.app_context():
        return list(
            db.session.scalars(
                select(AuditEntry)
                .where(AuditEntry.tenant_id == tenant_id, AuditEntry.action == action)
                .order_by(AuditEntry.seq)
            )
        )


def stored_passkey(app, authenticator):
    from services.passkeys import credentials

    with app.app_context():
        return credentials.find(authenticator.id)

"""Passkeys in the portal: the Passkeys page (add, list, rename, remove, with CSRF) and
"Sign in with a passkey" on the sign-in page, with sessions, refusals and the throttle."""

from __future__ import annotations

from tests.helpers import PASSWORD, audit_actions, csrf_token, post, sign_in
from tests.passkeys.passkey_support import (
    audit_entries,
    registered,
    stored_passkey,
)
from tests.webauthn_authenticator import SoftwareAuthenticator


def script_post(client, path, body, page="/"):
    """A JSON POST as static/js/passkeys.js sends it: the page's CSRF token in a header."""
    token = csrf_token(client, page)
    return client.post(path, json=body, headers={"X-CSRFToken": token})


def portal_register(client, authenticator, name=None):
    options = script_post(client, "/passkeys/registration/options", {}, "/passkeys")
    assert options.status_code == 200, options.get_data(as_text=True)
    data = options.get_json()["data"]
    body = {
        "challengeId": data["challengeId"],
        "credential": authenticator.create(data["publicKey"]),
    }
    if name:
        body["name"] = name
    return script_post(client, "/passkeys/registration/verify", body, "/passkeys")


def portal_sign_in(client, workspace, authenticator, email=None, forged=None, **extra):
    options = script_post(
        client, "/login/passkey/options", {"workspace": workspace, "email": email}, "/login"
    )
    assert options.status_code == 200, options.get_data(as_text=True)
    data = options.get_json()["data"]
    body = {
        "workspace": workspace,
        "challengeId": data["challengeId"],
        "credential": authenticator.get(data["publicKey"], **(forged or {})),
        **extra,
    }
    return script_post(client, "/login/passkey/verify", body, "/login")


def test_every_signed_in_person_has_a_passkeys_page(app, client, tenant, auditor):
    assert sign_in(client, tenant.id, auditor.email).status_code == 302
    dashboard = client.get("/").get_data(as_text=True)
    assert 'href="/passkeys"' in dashboard
    page = client.get("/passkeys")
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert "No passkeys yet" in html and "Add a passkey" in html
    assert "js/passkeys.js" in html and "<script>" not in html
    assert "script-src 'self'" in page.headers["Content-Security-Policy"]


def test_portal_adds_lists_renames_and_removes_a_passkey(app, admin_client, tenant, admin):
    client = admin_client
    authenticator = SoftwareAuthenticator()
    created = portal_register(client, authenticator, name="Office key")
    assert created.status_code == 201, created.get_data(as_text=True)
    assert created.get_json()["data"]["redirect"] == "/passkeys"
    passkey_id = created.get_json()["data"]["passkey"]["id"]
    html = client.get("/passkeys").get_data(as_text=True)
    assert 'value="Office key"' in html and "never" in html
    assert "Passkey “Office key” added" in html

    renamed = post(client, f"/passkeys/{passkey_id}/rename", {"name": "  Desk   key "})
    assert renamed.status_code == 302
    assert 'value="Desk key"' in client.get("/passkeys").get_data(as_text=True)
    blank = post(client, f"/passkeys/{passkey_id}/rename", {"name": "   "})
    assert blank.status_code == 302
    assert "keeps its name" in client.get("/passkeys").get_data(as_text=True)

    removed = post(client, f"/passkeys/{passkey_id}/remove")
    assert removed.status_code == 302
    html = client.get("/passkeys").get_data(as_text=True)
    assert "Desk key" in html and "No passkeys yet" in html  # the flash names it
    assert stored_passkey(app, authenticator) is None
    actions = audit_actions(app, tenant.id)
    for action in ("passkey.registered", "passkey.renamed", "passkey.removed"):
        assert actions.count(action) == 1
    (rename,) = audit_entries(app, tenant.id, "passkey.renamed")
    assert rename.details["from"] == "Office key" and rename.details["to"] == "Desk key"
    assert rename.actor_id == admin.id


def test_portal_changes_need_the_csrf_token(app, admin_client, admin):
    authenticator = registered(app, admin)
    passkey_id = stored_passkey(app, authenticator).id
    for path in (f"/passkeys/{passkey_id}/rename", f"/passkeys/{passkey_id}/remove"):
        assert admin_client.post(path, data={"name": "x"}).status_code == 400
    options = admin_client.post("/passkeys/registration/options", json={})
    assert options.status_code == 400
    assert stored_passkey(app, authenticator).name == "Laptop"


def test_nobody_touches_another_persons_passkey(app, admin_client, member):
    authenticator = registered(app, member)
    passkey_id = stored_passkey(app, authenticator).id
    assert post(admin_client, f"/passkeys/{passkey_id}/remove").status_code == 404
    assert post(admin_client, f"/passkeys/{passkey_id}/rename", {"name": "x"}).status_code == 404
    assert stored_passkey(app, authenticator).name == "Laptop"
    assert member.email not in admin_client.get("/passkeys").get_data(as_text=True)


def test_sign_in_page_offers_passkeys(client):
    html = client.get("/login").get_data(as_text=True)
    assert "Sign in with a passkey" in html
    assert 'data-options-url="/login/passkey/options"' in html
    assert "js/passkeys.js" in html


def test_portal_sign_in_with_a_passkey_starts_a_session(app, client, tenant, admin):
    from sqlalchemy import select

    from extensions import db
    from models import PortalSession

    authenticator = registered(app, admin)
    response = portal_sign_in(client, tenant.id, authenticator, next="/passkeys")
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.get_json()["data"]["redirect"] == "/passkeys"
    page = client.get("/passkeys")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Signed in with a passkey." in html and "Laptop" in html
    with app.app_context():
        rows = db.session.scalars(select(PortalSession)).all()
    assert [r.principal_id for r in rows] == [admin.id]
    (login,) = audit_entries(app, tenant.id, "user.login")
    assert login.details["method"] == "passkey"


def test_portal_passkey_sign_in_refusals_are_json_and_audited(app, client, tenant, admin):
    registered(app, admin)
    stranger = SoftwareAuthenticator()  # never registered
    refused_ = portal_sign_in(client, tenant.id, stranger, email=admin.email)
    assert refused_.status_code == 400
    assert refused_.get_json()["errors"][0]["code"] == "INVALID_PASSKEY"
    assert client.get("/").status_code == 302  # not signed in
    assert audit_actions(app, tenant.id)[-1] == "user.login_failed"
    origin = {"origin": "https://x.example"}
    forged = portal_sign_in(client, tenant.id, registered(app, admin), forged=origin)
    assert forged.status_code == 400 and "origin" in forged.get_json()["errors"][0]["message"]
    no_workspace = script_post(client, "/login/passkey/options", {}, "/login")
    assert no_workspace.status_code == 400
    assert no_workspace.get_json()["errors"][0]["code"] == "TENANT_REQUIRED"
    no_csrf = client.post("/login/passkey/options", json={"workspace": tenant.id})
    assert no_csrf.status_code == 400


def test_the_password_throttle_does_not_hold_back_a_passkey(app, client, tenant, admin):
    authenticator = registered(app, admin)
    for _ in range(6):
        sign_in(client, tenant.id, admin.email, password="not " + PASSWORD)
    throttled = sign_in(client, tenant.id, admin.email)
    assert throttled.status_code == 429
    response = portal_sign_in(client, tenant.id, authenticator)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert client.get("/").status_code == 200

"""Invitations (CONTRACT §10): admins invite by e-mail with a role through the API and the
Users page; the mail goes through a real SMTP server (aiosmtpd); without SMTP the link is in
the answer; the public accept page sets a password, signs the person in and works once."""

from __future__ import annotations

import re
from datetime import timedelta

import clock
from tests.helpers import audit_actions, bearer, csrf_token, post, sign_in
from tests.passkeys.passkey_support import sign_in_with
from tests.webauthn_authenticator import SoftwareAuthenticator

API = "/api/v1/users/invitations"
LINK_RE = re.compile(r"http://localhost(/invite/[A-Za-z0-9_-]+)")


def _invite(client, headers, email="new@acme.example", role="member"):
    return client.post(API, json={"email": email, "role": role}, headers=headers)


def _accept(client, path, password="a long new password", confirm=None):
    token = csrf_token(client, path)
    confirm = password if confirm is None else confirm
    form = {"csrf_token": token, "name": "New Person", "password": password, "confirm": confirm}
    return client.post(path, data=form)


def test_without_smtp_the_answer_carries_the_link(app, client, tenant, admin):
    response = _invite(client, bearer(app, tenant, admin))
    assert response.status_code == 201, response.get_json()
    data = response.get_json()["data"]
    assert data["id"].startswith("inv_") and data["email"] == "new@acme.example"
    assert data["role"] == "member" and data["acceptedAt"] is None
    assert set(data) >= {"expiresAt", "createdAt", "acceptUrl"}
    assert data["acceptUrl"].startswith("http://localhost/invite/")
    token = data["acceptUrl"].rsplit("/", 1)[1]
    assert len(token) >= 43  # 256 bits, base64url
    assert "invitation.created" in audit_actions(app, tenant.id)


def test_with_smtp_the_link_is_mailed_from_a_job(app, client, tenant, admin, smtp_server, work):
    response = _invite(client, bearer(app, tenant, admin))
    assert response.status_code == 201
    assert "acceptUrl" not in response.get_json()["data"]
    assert smtp_server.messages == []  # the request did not wait on SMTP
    work()
    assert len(smtp_server.messages) == 1
    message = smtp_server.messages[0]
    assert message["To"] == "new@acme.example"
    assert tenant.name in message["Subject"]
    assert LINK_RE.search(message.get_content())


def test_accepting_sets_a_password_signs_in_and_works_once(app, client, tenant, admin):
    url = _invite(client, bearer(app, tenant, admin)).get_json()["data"]["acceptUrl"]
    path = url.removeprefix("http://localhost")
    page = client.get(path)
    assert page.status_code == 200 and "new@acme.example" in page.get_data(as_text=True)

    differ = _accept(client, path, confirm="something else entirely")
    assert differ.status_code == 422
    short = _accept(client, path, password="short")
    assert short.status_code == 422

    done = _accept(client, path)
    assert done.status_code == 302
    assert client.get("/passkeys").status_code == 200  # signed in
    assert "invitation.accepted" in audit_actions(app, tenant.id)

    post(client, "/logout")
    again = client.get(path)
    assert again.status_code == 410 and "used already" in again.get_data(as_text=True)
    assert sign_in(client, tenant.id, "new@acme.example", "a long new password").status_code == 302

    listed = client.get(API, headers=bearer(app, tenant, admin)).get_json()["data"]
    assert listed[0]["status"] == "accepted" and listed[0]["acceptedAt"]


def test_an_expired_invitation_answers_410(app, client, tenant, admin):
    url = _invite(client, bearer(app, tenant, admin)).get_json()["data"]["acceptUrl"]
    clock.freeze(clock.now() + timedelta(days=7, seconds=1))
    page = client.get(url.removeprefix("http://localhost"))
    assert page.status_code == 410 and "expired" in page.get_data(as_text=True)


def test_a_revoked_invitation_answers_410(app, client, tenant, admin):
    headers = bearer(app, tenant, admin)
    data = _invite(client, headers).get_json()["data"]
    revoked = client.delete(f"{API}/{data['id']}", headers=headers)
    assert revoked.status_code == 200 and revoked.get_json()["data"]["status"] == "revoked"
    path = data["acceptUrl"].removeprefix("http://localhost")
    assert client.get(path).status_code == 410
    assert _accept(client.application.test_client(), path).status_code == 410


def test_a_forged_token_is_a_clear_page(client, tenant):
    page = client.get("/invite/" + "A" * 43)
    assert page.status_code == 410 and "not valid" in page.get_data(as_text=True)


def test_inviting_an_existing_user_is_409(app, client, tenant, admin, member):
    response = _invite(client, bearer(app, tenant, admin), email=member.email)
    assert response.status_code == 409


def test_a_second_invitation_replaces_the_first(app, client, tenant, admin):
    headers = bearer(app, tenant, admin)
    first = _invite(client, headers).get_json()["data"]
    _invite(client, headers)
    assert client.get(first["acceptUrl"].removeprefix("http://localhost")).status_code == 410


def test_only_admins_invite(app, client, tenant, member, headers):
    assert _invite(client, bearer(app, tenant, member)).status_code == 403
    assert client.get(API, headers=bearer(app, tenant, member)).status_code == 403
    assert _invite(client, headers).status_code == 403  # an API key is no admin


def test_another_tenants_invitation_is_404(app, client, tenant, other_tenant, admin,
                                           create_user):  # fmt: skip
    theirs = create_user(other_tenant, "admin", email="admin@globex.example")
    data = _invite(client, bearer(app, other_tenant, theirs)).get_json()["data"]
    mine = bearer(app, tenant, admin)
    assert client.delete(f"{API}/{data['id']}", headers=mine).status_code == 404
    assert client.get(API, headers=mine).get_json()["data"] == []


def test_the_users_page_invites_and_shows_the_link_without_smtp(app, client, tenant, admin):
    sign_in(client, tenant.id, admin.email)
    page = post(client, "/users/invitations", {"email": "p@acme.example", "role": "auditor"})
    assert page.status_code == 201
    html = page.get_data(as_text=True)
    assert 'id="accept-url"' in html and "/invite/" in html
    assert page.headers["Cache-Control"].startswith("no-store")
    listed = client.get("/users").get_data(as_text=True)
    assert "p@acme.example" in listed and 'id="accept-url"' not in listed


def test_the_users_page_mails_with_smtp(app, client, tenant, admin, smtp_server, work):
    sign_in(client, tenant.id, admin.email)
    page = post(client, "/users/invitations", {"email": "p@acme.example", "role": "member"})
    assert page.status_code == 302
    work()
    assert smtp_server.messages[0]["To"] == "p@acme.example"


def test_the_users_page_shows_a_bad_address_beside_its_field(client, tenant, admin):
    sign_in(client, tenant.id, admin.email)
    page = post(client, "/users/invitations", {"email": "not-an-email", "role": "member"})
    assert page.status_code == 422 and "not an email address" in page.get_data(as_text=True)


def _script_post(client, path, body, page):
    """A JSON POST as static/js/passkeys.js sends it: the page's CSRF token in a header."""
    return client.post(path, json=body, headers={"X-CSRFToken": csrf_token(client, page)})


def test_accepting_with_a_passkey_creates_the_account_without_a_password(
    app, client, tenant, admin
):
    url = _invite(client, bearer(app, tenant, admin)).get_json()["data"]["acceptUrl"]
    path = url.removeprefix("http://localhost")
    authenticator = SoftwareAuthenticator()
    options = _script_post(client, f"{path}/passkey/options", {}, path)
    assert options.status_code == 200, options.get_data(as_text=True)
    data = options.get_json()["data"]
    body = {"challengeId": data["challengeId"],
            "credential": authenticator.create(data["publicKey"])}  # fmt: skip
    done = _script_post(client, f"{path}/passkey/verify", body, path)
    assert done.status_code == 200, done.get_data(as_text=True)
    assert client.get("/passkeys").status_code == 200  # signed in
    post(client, "/logout")

    signed_in, _ = sign_in_with(client, tenant.id, authenticator)
    assert signed_in.status_code == 200  # the passkey signs the new person in
    assert client.get(path).status_code == 410  # the link is spent
    refused = sign_in(client, tenant.id, "new@acme.example", "any password at all")
    assert refused.status_code == 401  # no password was set


def test_a_refused_passkey_leaves_the_invitation_open(app, client, tenant, admin):
    url = _invite(client, bearer(app, tenant, admin)).get_json()["data"]["acceptUrl"]
    path = url.removeprefix("http://localhost")
    options = _script_post(client, f"{path}/passkey/options", {}, path).get_json()["data"]
    body = {"challengeId": options["challengeId"],
            "credential": SoftwareAuthenticator().create(
                options["publicKey"], origin="https://evil.example")}  # fmt: skip
    refused = _script_post(client, f"{path}/passkey/verify", body, path)
    assert refused.status_code == 400
    assert client.get(path).status_code == 200  # nothing was created or spent

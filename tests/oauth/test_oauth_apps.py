"""Registering OAuth apps: the admins' "OAuth apps" page, `flask oauth-clients`, and what a
confidential app must prove at the token endpoint."""

from __future__ import annotations

import re

from tests.helpers import audit_actions, post, sign_in
from tests.oauth.test_oauth import REDIRECT, authorize, code_of, consent, exchange, pkce

_CLIENT_ID = re.compile(r'<code id="client-id">([^<]+)</code>')
_SECRET = re.compile(r'<code id="client-secret">([^<]+)</code>')


def _register(client, **form):
    data = {"name": "Reports", "redirect_uris": REDIRECT, "scopes": ["documents:read"], **form}
    return post(client, "/oauth-apps", data)


def _row(app, client_id):
    with app.app_context():
        from extensions import db
        from models import OAuthClient

        row = db.session.get(OAuthClient, client_id)
        db.session.expunge(row)
        return row


def test_an_admin_registers_a_confidential_app_and_sees_the_secret_once(app, admin_client, tenant):
    created = _register(admin_client, confidential="1")

    assert created.status_code == 201
    assert created.headers["Cache-Control"].startswith("no-store")
    html = created.get_data(as_text=True)
    client_id, secret = _CLIENT_ID.search(html).group(1), _SECRET.search(html).group(1)
    row = _row(app, client_id)
    assert row.tenant_id == tenant.id and row.confidential and row.scopes == ["documents:read"]
    assert secret not in (row.secret_hash or "") and row.secret_hint == secret[-4:]
    listing = admin_client.get("/oauth-apps").get_data(as_text=True)
    assert "Reports" in listing and secret not in listing
    assert "oauth_client.created" in audit_actions(app, tenant.id)


def test_a_bad_registration_is_refused_on_the_form(admin_client):
    response = _register(admin_client, redirect_uris="javascript:alert(1)", scopes=[])
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "Choose at least one scope." in html


def test_registering_needs_an_admin(client, tenant, member):
    assert sign_in(client, tenant.id, member.email).status_code == 302
    assert client.get("/oauth-apps").status_code == 403
    assert _register(client).status_code == 403


def test_deleting_an_app_ends_its_tokens_and_another_workspaces_app_is_404(
    app, admin_client, tenant, other_tenant
):
    from tests.oauth.test_oauth import api

    html = _register(admin_client).get_data(as_text=True)
    client_id = _CLIENT_ID.search(html).group(1)
    verifier, challenge = pkce()
    page = authorize(admin_client, client_id, challenge=challenge)
    code, _ = code_of(consent(admin_client, page))
    access = exchange(admin_client, client_id, code, verifier).get_json()["access_token"]
    assert api(admin_client, tenant.id, access).status_code == 200

    with app.app_context():
        from extensions import db
        from models import Tenant
        from services.core.actors import Actor
        from services.oauth import clients

        foreign, _ = clients.create_client(
            db.session.get(Tenant, other_tenant.id), "Theirs", [REDIRECT], ["documents:read"],
            Actor.cli(),
        )  # fmt: skip
        db.session.commit()
        foreign_id = foreign.id
    assert post(admin_client, f"/oauth-apps/{foreign_id}/delete").status_code == 404
    assert _row(app, foreign_id).deleted_at is None

    deleted = post(admin_client, f"/oauth-apps/{client_id}/delete")
    assert deleted.status_code == 302
    assert api(admin_client, tenant.id, access).get_json()["errors"][0]["code"] == "INVALID_TOKEN"
    assert "oauth_client.deleted" in audit_actions(app, tenant.id)
    assert client_id not in admin_client.get("/oauth-apps").get_data(as_text=True)


def test_a_confidential_app_must_authenticate_at_the_token_endpoint(admin_client):
    html = _register(admin_client, confidential="1").get_data(as_text=True)
    client_id, secret = _CLIENT_ID.search(html).group(1), _SECRET.search(html).group(1)

    def fresh_code():
        verifier, challenge = pkce()
        page = authorize(admin_client, client_id, challenge=challenge)
        code, _ = code_of(page if page.status_code == 302 else consent(admin_client, page))
        return code, verifier

    code, verifier = fresh_code()
    anonymous = exchange(admin_client, client_id, code, verifier)
    assert anonymous.status_code == 401 and anonymous.get_json()["error"] == "invalid_client"

    code, verifier = fresh_code()
    wrong = exchange(admin_client, client_id, code, verifier, client_secret="dms_cs_wrong")
    assert wrong.get_json()["error"] == "invalid_client"

    code, verifier = fresh_code()
    right = exchange(admin_client, client_id, code, verifier, client_secret=secret)
    assert right.status_code == 200 and right.get_json()["token_type"] == "Bearer"


def test_the_cli_registers_and_lists_apps(app, tenant):
    runner = app.test_cli_runner()
    create = ["oauth-clients", "create", tenant.id, "--redirect-uri", REDIRECT]
    public = runner.invoke(args=[*create, "--name", "Mobile", "--scopes", "documents:read"])
    assert public.exit_code == 0, public.output
    public_id = public.output.strip()
    assert " " not in public_id

    confidential = runner.invoke(args=[*create, "--name", "Server", "--confidential"])
    server_id, secret = confidential.output.strip().split()
    assert _row(app, server_id).secret_hint == secret[-4:]

    listing = runner.invoke(args=["oauth-clients", "list", tenant.id]).output
    assert f"{public_id}\tpublic\tMobile\t{REDIRECT}" in listing
    assert f"{server_id}\tconfidential\tServer" in listing and secret not in listing

    bad = runner.invoke(args=["oauth-clients", "create", tenant.id, "--name", "Bad",
                              "--redirect-uri", "not a uri"])  # fmt: skip
    assert bad.exit_code != 0
    assert "oauth_client.created" in audit_actions(app, tenant.id)


def test_a_registration_without_the_csrf_token_creates_nothing(app, admin_client, tenant):
    form = {"name": "Forged", "redirect_uris": REDIRECT, "scopes": "documents:read"}
    assert admin_client.post("/oauth-apps", data=form).status_code == 400
    forged = admin_client.post("/oauth-apps", data={**form, "csrf_token": "forged"})
    assert forged.status_code == 400
    with app.app_context():
        from services.oauth import clients

        assert clients.list_clients(tenant.id) == []


def test_an_app_with_one_redirect_uri_may_leave_it_out_of_both_requests(app, admin_client, tenant):
    """RFC 6749 §4.1.3: the exchange repeats redirect_uri only if the authorization sent it."""
    from tests.oauth.test_oauth import code_of as _code_of

    html = _register(admin_client).get_data(as_text=True)
    client_id = _CLIENT_ID.search(html).group(1)
    verifier, challenge = pkce()
    page = admin_client.get("/oauth/authorize", query_string={
        "response_type": "code", "client_id": client_id, "scope": "documents:read",
        "code_challenge": challenge, "code_challenge_method": "S256", "state": "s"})  # fmt: skip
    code, query = _code_of(consent(admin_client, page))
    assert query["state"] == "s"
    form = {"grant_type": "authorization_code", "code": code, "client_id": client_id,
            "code_verifier": verifier}  # fmt: skip
    response = admin_client.post("/oauth/token", data=form)
    assert response.status_code == 200, response.get_json()


def test_scopes_the_app_may_not_ask_for_are_refused_as_such(admin_client):
    html = _register(admin_client).get_data(as_text=True)  # documents:read only
    client_id = _CLIENT_ID.search(html).group(1)
    page = authorize(admin_client, client_id, challenge=pkce()[1], scope="webhooks:write")
    _, query = code_of(page)
    assert query["error"] == "invalid_scope"
    assert query["error_description"] == "None of the requested scopes is registered for this app."

"""OAuth 2.0 authorization code with PKCE, through the real sign-in and consent pages: the
flow, what is refused (plain, missing or wrong PKCE; replayed codes and refresh tokens; open
redirects), what tokens may do, and when they stop working."""

from __future__ import annotations

import base64
import hashlib
import io
import secrets
from datetime import timedelta
from urllib.parse import parse_qs, urlsplit

import pytest

import clock
from tests.helpers import audit_actions, auth_headers, csrf_token, sign_in
from tests.oauth.conftest import REDIRECT


def pkce() -> tuple[str, str]:
    verifier = secrets.token_urlsafe(48)[:64]
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest())
    return verifier, challenge.rstrip(b"=").decode()


def authorize(client, client_id, *, challenge, scope="documents:read", state="xyz", **extra):
    params = {
        "response_type": "code",
        "client_id": client_id,
        "redirect_uri": REDIRECT,
        "scope": scope,
        "code_challenge": challenge,
        "code_challenge_method": "S256",
        "state": state,
        **extra,
    }
    return client.get("/oauth/authorize", query_string={k: v for k, v in params.items() if v})


def consent(client, page, decision="allow"):
    url = page.request.full_path if hasattr(page, "request") else None
    token = csrf_token(client, url)
    return client.post(url, data={"csrf_token": token, "decision": decision})


def code_of(response) -> tuple[str, dict]:
    assert response.status_code == 302, response.get_data(as_text=True)[:500]
    location = urlsplit(response.headers["Location"])
    assert f"{location.scheme}://{location.netloc}{location.path}" == REDIRECT
    query = {k: v[0] for k, v in parse_qs(location.query).items()}
    return query.get("code", ""), query


def exchange(client, client_id, code, verifier, **extra):
    form = {"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT,
            "client_id": client_id, "code_verifier": verifier, **extra}  # fmt: skip
    return client.post("/oauth/token", data=form)


def refresh(client, client_id, refresh_token):
    form = {"grant_type": "refresh_token", "refresh_token": refresh_token, "client_id": client_id}
    return client.post("/oauth/token", data=form)


def tokens_for(client, oauth_app, scope="documents:read") -> dict:
    verifier, challenge = pkce()
    page = authorize(client, oauth_app, challenge=challenge, scope=scope)
    if page.status_code == 200:
        page = consent(client, page)
    code, _ = code_of(page)
    response = exchange(client, oauth_app, code, verifier)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def api(client, tenant_id, access_token, path="/api/v1/documents"):
    return client.get(path, headers=auth_headers(access_token, tenant_id))


def _error(response) -> str:
    return response.get_json()["errors"][0]["code"]


# --- the flow -------------------------------------------------------------------------------


def test_the_whole_flow_through_sign_in_and_consent(app, client, tenant, oauth_app, create_user):
    user = create_user(tenant, "member", email="new@acme.example")
    verifier, challenge = pkce()

    start = authorize(client, oauth_app, challenge=challenge, scope="documents:read")
    assert start.status_code == 302 and "/login" in start.headers["Location"]
    signed_in = sign_in(
        client,
        tenant.id,
        user.email,
        next=parse_qs(urlsplit(start.headers["Location"]).query)["next"][0],
    )
    assert signed_in.status_code == 302 and signed_in.headers["Location"].startswith(
        "/oauth/authorize?"
    )  # fmt: skip
    page = client.get(signed_in.headers["Location"])
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Allow <strong>Field app</strong>?" in html
    assert "List, read and download documents; search" in html  # the scope in plain words

    code, query = code_of(consent(client, page))
    assert query["state"] == "xyz"  # returned unchanged
    response = exchange(client, oauth_app, code, verifier)

    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    body = response.get_json()
    assert body["token_type"] == "Bearer" and body["expires_in"] == 3600
    assert body["scope"] == "documents:read" and body["refresh_token"].startswith("dmsr_")
    assert api(client, tenant.id, body["access_token"]).status_code == 200
    me = api(client, tenant.id, body["access_token"], "/api/v1/me").get_json()["data"]
    assert (me["type"], me["id"], me["role"], me["scopes"]) == (
        "user", user.id, "member", ["documents:read"]
    )  # fmt: skip
    actions = audit_actions(app, tenant.id)
    assert "oauth.consent_granted" in actions and "oauth.token_issued" in actions


def test_consent_is_remembered_until_revoked(app, client, tenant, oauth_app, person):
    first = tokens_for(client, oauth_app)
    verifier, challenge = pkce()
    again = authorize(client, oauth_app, challenge=challenge)
    code, _ = code_of(again)  # straight back to the app: no page this time
    assert exchange(client, oauth_app, code, verifier).status_code == 200

    token = csrf_token(client, "/authorized-apps")
    client.post(f"/authorized-apps/{oauth_app}/revoke", data={"csrf_token": token})

    assert _error(api(client, tenant.id, first["access_token"])) == "INVALID_TOKEN"
    assert refresh(client, oauth_app, first["refresh_token"]).status_code == 400
    assert authorize(client, oauth_app, challenge=pkce()[1]).status_code == 200  # asks again
    assert "oauth.consent_revoked" in audit_actions(app, tenant.id)


def test_deny_goes_back_with_access_denied_and_the_state(client, oauth_app, person):
    page = authorize(client, oauth_app, challenge=pkce()[1], state="s-42")
    _, query = code_of(consent(client, page, decision="deny"))
    assert (query["error"], query["state"]) == ("access_denied", "s-42")


def test_a_user_grants_only_what_their_role_allows(client, tenant, oauth_app, create_user):
    auditor = create_user(tenant, "auditor", email="audrey@acme.example")
    sign_in(client, tenant.id, auditor.email)
    page = authorize(client, oauth_app, challenge=pkce()[1], scope="documents:read documents:write")
    html = page.get_data(as_text=True)
    assert "documents:write" in html.split("does not allow")[1]  # withheld, and said so
    tokens = tokens_for(client, oauth_app, scope="documents:read documents:write")
    assert tokens["scope"] == "documents:read"


# --- PKCE and codes -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "extra, description",
    [
        ({"code_challenge_method": "plain"}, "must be S256"),
        ({"code_challenge": None, "code_challenge_method": None}, "PKCE is required"),
    ],
    ids=["plain", "missing"],
)
def test_pkce_must_be_s256(client, oauth_app, person, extra, description):
    _, challenge = pkce()
    response = authorize(client, oauth_app, challenge=challenge, **extra)
    _, query = code_of(response)
    assert query["error"] == "invalid_request" and description in query["error_description"]


def test_a_wrong_verifier_gets_no_token(client, oauth_app, person):
    _, challenge = pkce()
    code, _ = code_of(consent(client, authorize(client, oauth_app, challenge=challenge)))
    other, _ = pkce()
    response = exchange(client, oauth_app, code, other)
    assert response.status_code == 400 and response.get_json()["error"] == "invalid_grant"


@pytest.mark.parametrize("verifier", ["short", "x" * 129, "bad*chars" + "a" * 40])
def test_a_malformed_verifier_is_invalid_request(client, oauth_app, person, verifier):
    _, challenge = pkce()
    code, _ = code_of(consent(client, authorize(client, oauth_app, challenge=challenge)))
    response = exchange(client, oauth_app, code, verifier)
    assert response.status_code == 400 and response.get_json()["error"] == "invalid_request"


def test_a_replayed_code_revokes_what_it_issued(app, client, tenant, oauth_app, person):
    verifier, challenge = pkce()
    code, _ = code_of(consent(client, authorize(client, oauth_app, challenge=challenge)))
    first = exchange(client, oauth_app, code, verifier).get_json()
    assert api(client, tenant.id, first["access_token"]).status_code == 200

    replay = exchange(client, oauth_app, code, verifier)

    assert replay.status_code == 400 and replay.get_json()["error"] == "invalid_grant"
    assert _error(api(client, tenant.id, first["access_token"])) == "INVALID_TOKEN"
    assert refresh(client, oauth_app, first["refresh_token"]).status_code == 400
    assert "oauth.code_reused" in audit_actions(app, tenant.id)


def test_a_code_lives_ten_minutes(client, oauth_app, person):
    verifier, challenge = pkce()
    code, _ = code_of(consent(client, authorize(client, oauth_app, challenge=challenge)))
    clock.shift(timedelta(minutes=11))
    assert exchange(client, oauth_app, code, verifier).get_json()["error"] == "invalid_grant"


def test_a_code_is_bound_to_its_redirect_uri(client, oauth_app, person):
    verifier, challenge = pkce()
    code, _ = code_of(consent(client, authorize(client, oauth_app, challenge=challenge)))
    response = exchange(client, oauth_app, code, verifier, redirect_uri="http://localhost:8765/cb")
    assert response.get_json()["error"] == "invalid_grant"


# --- refresh --------------------------------------------------------------------------------


def test_refresh_rotates_and_reuse_revokes_the_family(app, client, tenant, oauth_app, person):
    first = tokens_for(client, oauth_app)
    second = refresh(client, oauth_app, first["refresh_token"]).get_json()
    assert second["refresh_token"] != first["refresh_token"]
    assert api(client, tenant.id, second["access_token"]).status_code == 200

    reuse = refresh(client, oauth_app, first["refresh_token"])  # the rotated one, again

    assert reuse.status_code == 400 and reuse.get_json()["error"] == "invalid_grant"
    assert _error(api(client, tenant.id, second["access_token"])) == "INVALID_TOKEN"
    assert refresh(client, oauth_app, second["refresh_token"]).status_code == 400
    assert "oauth.refresh_reused" in audit_actions(app, tenant.id)


def test_revocation_endpoint_ends_the_family(client, tenant, oauth_app, person):
    tokens = tokens_for(client, oauth_app)
    response = client.post(
        "/oauth/revoke", data={"token": tokens["access_token"], "client_id": oauth_app}
    )
    assert response.status_code == 200
    assert _error(api(client, tenant.id, tokens["access_token"])) == "INVALID_TOKEN"
    unknown = client.post("/oauth/revoke", data={"token": "nope", "client_id": oauth_app})
    assert unknown.status_code == 200  # RFC 7009: nothing said about unknown tokens


# --- what a token may do, and when it stops -------------------------------------------------


def test_an_expired_access_token_says_so(client, tenant, oauth_app, person):
    tokens = tokens_for(client, oauth_app)
    clock.shift(timedelta(minutes=61))
    response = api(client, tenant.id, tokens["access_token"])
    assert response.status_code == 401 and _error(response) == "TOKEN_EXPIRED"
    assert 'error="invalid_token"' in response.headers["WWW-Authenticate"]


def test_token_scopes_limit_the_api(client, tenant, oauth_app, person):
    tokens = tokens_for(client, oauth_app, scope="documents:read")
    upload = client.post(
        "/api/v1/documents", headers=auth_headers(tokens["access_token"], tenant.id),
        data={"file": (io.BytesIO(b"x"), "x.txt")},
    )  # fmt: skip
    assert upload.status_code == 403 and _error(upload) == "INSUFFICIENT_SCOPE"
    assert upload.headers["WWW-Authenticate"] == 'Bearer realm="api", error="insufficient_scope"'


def test_a_role_change_narrows_live_tokens_at_once(app, client, tenant, oauth_app, person):
    from extensions import db
    from models import User
    from services.accounts import users
    from services.core.actors import Actor

    tokens = tokens_for(client, oauth_app, scope="documents:read documents:write")
    with app.app_context():
        users.change_role(db.session.get(User, person.id), "auditor", Actor.cli())
        db.session.commit()
    me = api(client, tenant.id, tokens["access_token"], "/api/v1/me").get_json()["data"]
    assert me["scopes"] == ["documents:read"]


def test_a_deactivated_users_tokens_stop_at_once(app, client, tenant, oauth_app, person):
    from extensions import db
    from models import User

    tokens = tokens_for(client, oauth_app)
    with app.app_context():
        db.session.get(User, person.id).is_active_user = False
        db.session.commit()
    assert _error(api(client, tenant.id, tokens["access_token"])) == "INVALID_TOKEN"


def test_a_token_of_one_tenant_is_refused_by_another(
    client, tenant, oauth_app, person, other_tenant
):
    tokens = tokens_for(client, oauth_app)
    response = api(client, other_tenant.id, tokens["access_token"])
    assert response.status_code == 403 and _error(response) == "TENANT_MISMATCH"


@pytest.mark.parametrize("kind", ["alg-none", "other-key", "garbage"])
def test_forged_tokens_are_invalid(app, client, tenant, person, kind):
    from joserfc import jwt
    from joserfc.jwk import OctKey

    claims = {"iss": "http://localhost", "sub": person.id, "tenant_id": tenant.id,
              "scope": "documents:read", "exp": int(clock.now().timestamp()) + 600}  # fmt: skip
    if kind == "alg-none":
        head = base64.urlsafe_b64encode(b'{"alg":"none","typ":"at+jwt"}').rstrip(b"=").decode()
        body = base64.urlsafe_b64encode(__import__("json").dumps(claims).encode())
        token = f"{head}.{body.rstrip(b'=').decode()}."
    elif kind == "other-key":
        token = jwt.encode({"alg": "HS256", "typ": "at+jwt"}, claims,
                           OctKey.import_key(b"k" * 32))  # fmt: skip
    else:
        token = "aaaa.bbbb.cccc"
    response = api(client, tenant.id, token)
    assert response.status_code == 401 and _error(response) == "INVALID_TOKEN"


# --- refusals shown on our own page (never redirected) --------------------------------------


@pytest.mark.parametrize(
    "client_id, redirect_uri",
    [("oac_unknown", REDIRECT), (None, "https://evil.example/steal")],
    ids=["unknown-client", "unregistered-redirect"],
)
def test_open_redirect_attempts_stay_on_our_page(
    client, oauth_app, person, client_id, redirect_uri
):
    _, challenge = pkce()
    response = client.get("/oauth/authorize", query_string={
        "response_type": "code", "client_id": client_id or oauth_app,
        "redirect_uri": redirect_uri, "scope": "documents:read",
        "code_challenge": challenge, "code_challenge_method": "S256", "state": "s",
    })  # fmt: skip
    assert response.status_code == 400
    assert "Location" not in response.headers
    assert "cannot be used" in response.get_data(as_text=True)


def test_an_app_of_another_workspace_is_refused(client, oauth_app, create_user, other_tenant):
    stranger = create_user(other_tenant, "member", email="sam@globex.example")
    sign_in(client, other_tenant.id, stranger.email)
    response = authorize(client, oauth_app, challenge=pkce()[1])
    assert response.status_code == 403 and "Location" not in response.headers


def test_the_metadata_lists_s256_only(client):
    meta = client.get("/.well-known/oauth-authorization-server").get_json()
    assert meta["code_challenge_methods_supported"] == ["S256"]
    assert meta["token_endpoint"].endswith("/oauth/token")
    assert meta["authorization_endpoint"].endswith("/oauth/authorize")

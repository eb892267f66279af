"""OAuth 2.0 authorization code with PKCE in a real headless Chromium: an app sends the browser
to /oauth/authorize, the portal asks for sign-in, then for consent, and Allow takes the browser
back to the app's redirect URI (a small HTTP server of the test's own) with a code and the
state. The app then trades the code for tokens over plain HTTP, once only."""

from __future__ import annotations

import base64
import hashlib
import secrets
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
import requests

from tests.browser.browser_support import BROWSER_TEST, screenshot, serving, watched_page
from tests.helpers import PASSWORD

pytestmark = BROWSER_TEST


@pytest.fixture
def server(app) -> Iterator[str]:
    """The test app behind a real threaded HTTP server on a free loopback port."""
    with serving(app) as base:
        yield base


class _Callback(BaseHTTPRequestHandler):
    """The app's redirect URI: remembers each query string of GET /cb and says "done";
    anything else (the browser's /favicon.ico) gets an empty 204, not a console error."""

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        status, body = (200, b"done") if parts.path == "/cb" else (204, b"")
        if status == 200:
            self.server.queries.append({k: v[0] for k, v in parse_qs(parts.query).items()})
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:  # keep pytest's output clean
        pass


@pytest.fixture
def callback() -> Iterator[ThreadingHTTPServer]:
    """A native app's loopback redirect URI (RFC 8252 §7.3) on another free port."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Callback)
    httpd.queries = []
    httpd.url = f"http://127.0.0.1:{httpd.server_port}/cb"
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield httpd
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


@pytest.fixture
def field_app(app, tenant, callback) -> str:
    """A public app of `tenant` whose redirect URI is the callback server."""
    from extensions import db
    from models import Tenant
    from services.core.actors import Actor
    from services.oauth import clients

    with app.app_context():
        client, secret = clients.create_client(
            db.session.get(Tenant, tenant.id), "Field app", [callback.url],
            ["documents:read", "documents:write"], Actor.cli(),
        )  # fmt: skip
        db.session.commit()
        assert secret is None  # public: PKCE instead of a secret
        return client.id


def _pkce() -> tuple[str, str]:
    verifier = secrets.token_urlsafe(48)[:64]
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest())
    return verifier, challenge.rstrip(b"=").decode()


def _authorize_url(server: str, client_id: str, redirect_uri: str, challenge: str, state: str):
    query = urlencode({
        "response_type": "code", "client_id": client_id, "redirect_uri": redirect_uri,
        "scope": "documents:read", "state": state,
        "code_challenge": challenge, "code_challenge_method": "S256",
    })  # fmt: skip
    return f"{server}/oauth/authorize?{query}"


@pytest.fixture
def browser_page():
    with watched_page() as (_browser, page):
        yield page


def _sign_in(page) -> None:
    assert urlsplit(page.url).path == "/login"
    assert "Sign in to let Field app act for you." in page.content()
    assert page.input_value("#workspace") == "acme"  # the app's workspace, filled in
    page.fill("#email", "max@acme.example")
    page.fill("#password", PASSWORD)


def _exchange(server: str, form: dict) -> requests.Response:
    return requests.post(f"{server}/oauth/token", data=form, timeout=10)


def _me(server: str, access_token: str) -> requests.Response:
    headers = {"Authorization": f"Bearer {access_token}", "X-Tenant-Id": "acme"}
    return requests.get(f"{server}/api/v1/me", headers=headers, timeout=10)


def test_sign_in_consent_and_back_to_the_app_with_a_code(
    server, callback, field_app, tenant, create_user, browser_page
):
    page = browser_page
    user = create_user(tenant, "member", email="max@acme.example", password=PASSWORD)
    verifier, challenge = _pkce()
    state = secrets.token_urlsafe(16)

    page.goto(_authorize_url(server, field_app, callback.url, challenge, state))
    _sign_in(page)
    page.click("button[type=submit]")
    page.wait_for_load_state()
    assert urlsplit(page.url).path == "/oauth/authorize"
    assert page.locator("h1").inner_text() == "Allow Field app?"
    scopes = page.locator(".scope-list li")
    assert scopes.count() == 1  # documents:read only, in plain words
    assert "List, read and download documents; search" in scopes.inner_text()
    assert "127.0.0.1" in page.locator("main").inner_text()  # where Allow leads
    screenshot(page, "22-oauth-consent")
    with page.expect_navigation(url=f"{callback.url}?**"):
        page.click("button[name=decision][value=allow]")
    assert page.locator("body").inner_text().strip() == "done"
    assert page.problems == []

    (answer,) = callback.queries
    assert answer["state"] == state and answer["code"]
    form = {
        "grant_type": "authorization_code", "code": answer["code"],
        "redirect_uri": callback.url, "client_id": field_app, "code_verifier": verifier,
    }  # fmt: skip
    first = _exchange(server, form)
    assert first.status_code == 200, first.text
    tokens = first.json()
    assert tokens["token_type"] == "Bearer" and tokens["scope"] == "documents:read"
    me = _me(server, tokens["access_token"])
    assert me.status_code == 200, me.text
    body = me.json()["data"]
    assert (body["type"], body["id"], body["role"], body["scopes"]) == (
        "user", user.id, "member", ["documents:read"]
    )  # fmt: skip

    replay = _exchange(server, form)
    assert replay.status_code == 400 and replay.json()["error"] == "invalid_grant"
    assert _me(server, tokens["access_token"]).status_code == 401  # the replay revoked it


def test_remembered_consent_goes_straight_back_after_sign_in(
    app, server, callback, field_app, tenant, create_user, browser_page
):
    from extensions import db
    from models import OAuthClient, User
    from services.core.actors import Actor
    from services.oauth import consents

    page = browser_page
    user = create_user(tenant, "member", email="max@acme.example", password=PASSWORD)
    with app.app_context():
        client, person = db.session.get(OAuthClient, field_app), db.session.get(User, user.id)
        consents.grant(person, client, {"documents:read"}, Actor.cli())
        db.session.commit()
    verifier, challenge = _pkce()

    page.goto(_authorize_url(server, field_app, callback.url, challenge, "s-7"))
    _sign_in(page)
    with page.expect_navigation(url=f"{callback.url}?**"):  # no consent page this time
        page.click("button[type=submit]")
    assert page.problems == []

    (answer,) = callback.queries
    assert answer["state"] == "s-7"
    form = {
        "grant_type": "authorization_code", "code": answer["code"],
        "redirect_uri": callback.url, "client_id": field_app, "code_verifier": verifier,
    }  # fmt: skip
    assert _exchange(server, form).status_code == 200

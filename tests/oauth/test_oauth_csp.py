"""Browsers apply CSP `form-action` to every redirect after a form is sent: the consent page
and a sign-in that continues an authorization must allow the app's registered origin (and
nothing else), or Chromium stops on our page (tests/oauth/test_oauth_browser.py)."""

from __future__ import annotations

from urllib.parse import urlencode

from tests.oauth.test_oauth import REDIRECT, authorize, pkce


def _form_action(response) -> str:
    policy = response.headers["Content-Security-Policy"]
    return next(d for d in policy.split(";") if d.strip().startswith("form-action")).strip()


def _login_page(client, oauth_app, redirect_uri):
    query = urlencode({"response_type": "code", "client_id": oauth_app,
                       "redirect_uri": redirect_uri, "code_challenge": pkce()[1],
                       "code_challenge_method": "S256"})  # fmt: skip
    return client.get("/login", query_string={"next": f"/oauth/authorize?{query}"})


def test_the_consent_page_lets_its_form_end_at_the_app(client, oauth_app, person):
    page = authorize(client, oauth_app, challenge=pkce()[1])
    assert page.status_code == 200
    assert _form_action(page) == "form-action 'self' https://app.example"


def test_sign_in_continuing_an_authorization_allows_the_registered_origin(client, oauth_app):
    page = _login_page(client, oauth_app, REDIRECT)
    assert _form_action(page) == "form-action 'self' https://app.example"


def test_an_unregistered_redirect_or_other_next_adds_nothing(client, oauth_app):
    assert _form_action(_login_page(client, oauth_app, "https://evil.example/cb")) == (
        "form-action 'self'"
    )
    assert _form_action(_login_page(client, "cli_unknown", REDIRECT)) == "form-action 'self'"
    plain = client.get("/login", query_string={"next": "/keys"})
    assert _form_action(plain) == "form-action 'self'"

"""Passkeys in a real headless Chromium with its virtual authenticator (CTAP2, internal,
resident keys, user verification): add a passkey on the Passkeys page, sign out, and sign in
with it on the sign-in page without typing an email or a password.

WebAuthn does not take an IP address as the relying party id, so the browser goes to
http://localhost:<port> (RP id "localhost", the default) and the app allows that origin."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.browser.browser_support import BROWSER_TEST, screenshot, serving, sign_in, watched_page
from tests.helpers import PASSWORD

pytestmark = BROWSER_TEST


@pytest.fixture
def localhost(app, make_app) -> Iterator[str]:
    """An app on the test database behind a real HTTP server, reached as localhost."""
    application = make_app()
    with serving(application, host="localhost") as base:
        application.config["DMS_WEBAUTHN_ORIGINS"] = [base]
        yield base


def test_add_a_passkey_then_sign_in_with_it(app, localhost, tenant, create_user):
    create_user(tenant, "member", email="max@acme.example", password=PASSWORD)
    with watched_page() as (browser, page):
        cdp = browser.context.new_cdp_session(page)
        cdp.send("WebAuthn.enable")
        authenticator = cdp.send(
            "WebAuthn.addVirtualAuthenticator",
            {
                "options": {
                    "protocol": "ctap2",
                    "transport": "internal",
                    "hasResidentKey": True,
                    "hasUserVerification": True,
                    "isUserVerified": True,
                    "automaticPresenceSimulation": True,
                }
            },
        )["authenticatorId"]

        sign_in(page, localhost, "max@acme.example")
        page.click("nav >> text=Passkeys")
        assert page.locator("h1").inner_text() == "Passkeys"
        page.fill("#passkey-name", "Chromium on this desk")
        page.click("#passkey-add-button")
        page.wait_for_selector("text=Passkey “Chromium on this desk” added")
        assert page.locator("#passkeys-table tbody tr").count() == 1
        screenshot(page, "20-passkeys-page")
        stored = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})
        assert len(stored["credentials"]) == 1
        assert stored["credentials"][0]["isResidentCredential"] is True

        page.click("button:has-text('Sign out')")
        page.wait_for_load_state()
        page.fill("#workspace", "acme")  # no email: the authenticator offers its passkey
        assert page.locator("#passkey-signin-button").is_visible()
        screenshot(page, "21-sign-in-with-a-passkey")
        page.click("#passkey-signin-button")
        page.wait_for_url(f"{localhost}/")
        assert "Signed in with a passkey." in page.content()
        assert "max@acme.example" in page.locator(".who").inner_text()
        page.goto(f"{localhost}/passkeys")
        assert "never" not in page.locator("#passkeys-table tbody").inner_text()
        assert page.problems == []

    from sqlalchemy import select

    from extensions import db
    from models import AuditEntry, Passkey

    with app.app_context():
        (passkey,) = db.session.scalars(select(Passkey)).all()
        logins = db.session.scalars(
            select(AuditEntry).where(AuditEntry.action == "user.login").order_by(AuditEntry.seq)
        ).all()
    assert passkey.name == "Chromium on this desk" and passkey.last_used_at is not None
    assert [entry.details.get("method") for entry in logins] == [None, "passkey"]

"""An invitation in a real headless Chromium, without JavaScript: the invited person opens
the link, sets a password and lands signed in; the link then answers 410. Fails on any
console error; saves screenshots."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.browser.browser_support import BROWSER_TEST, screenshot, serving, watched_page
from tests.helpers import bearer

pytestmark = BROWSER_TEST


@pytest.fixture
def server(app) -> Iterator[str]:
    with serving(app) as base:
        yield base


def test_accept_an_invitation_without_javascript(app, client, server, tenant, admin):
    created = client.post("/api/v1/users/invitations",
                          json={"email": "new@acme.example", "role": "member"},
                          headers=bearer(app, tenant, admin))  # fmt: skip
    path = "/invite/" + created.get_json()["data"]["acceptUrl"].rsplit("/invite/", 1)[1]
    with watched_page(("status of 410",), java_script_enabled=False) as (_window, page):
        page.goto(f"{server}{path}")
        assert page.locator("h1").inner_text() == f"Join {tenant.name}"
        screenshot(page, "invitation-accept")
        page.fill("#name", "New Person")
        page.fill("#password", "a long new password")
        page.fill("#confirm", "a long new password")
        page.click("#accept-form button[type=submit]")
        page.wait_for_load_state()
        assert "/login" not in page.url and "/invite/" not in page.url
        assert "new@acme.example" in page.inner_text("header")
        response = page.goto(f"{server}{path}")
        assert response.status == 410
        assert "used already" in page.inner_text("#gone-reason")
        screenshot(page, "invitation-used")
        assert page.problems == []

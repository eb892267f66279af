"""The bell in a real headless Chromium: a webhook endpoint answers 410, the admin sees the
bell count, opens the Notifications page, marks one read with htmx and watches the bell count
go down without a reload. Fails on any console error; saves a screenshot."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.browser.browser_support import BROWSER_TEST, screenshot, serving, sign_in, watched_page
from tests.helpers import PASSWORD
from tests.webhooks.receiver import Answer, Receiver

pytestmark = BROWSER_TEST


@pytest.fixture
def server(app, monkeypatch) -> Iterator[str]:
    monkeypatch.setitem(app.config, "DMS_WEBHOOK_ALLOW_PRIVATE", True)
    monkeypatch.setitem(app.config, "DMS_WEBHOOK_ALLOW_HTTP", True)
    with serving(app) as base:
        yield base


def test_the_bell_in_a_real_browser(app, server, tenant, create_user, work):
    from services.core import events, transaction
    from services.core.actors import Actor
    from services.webhooks import endpoints

    create_user(tenant, "admin", email="ada@acme.example", password=PASSWORD)
    gone = Receiver().start()
    try:
        gone.default = Answer(410, body=b"gone")
        with app.app_context():
            endpoints.create_endpoint(tenant.id, gone.url(), ["*"], Actor.system("tests"))
            events.emit(tenant.id, "document.created", {"document": {"id": "doc_1"}})
            transaction.commit()
        work()  # the 410 disables the endpoint: the admin hears of it twice
    finally:
        gone.stop()

    with watched_page() as (_browser, page):
        sign_in(page, server, "ada@acme.example")
        assert page.locator("#notification-bell .bell-count").inner_text() == "2"

        page.click("#notification-bell")
        page.wait_for_url("**/notifications")
        assert page.locator(".notification.unread").count() == 2
        assert page.locator("text=Webhook endpoint disabled").count() == 1
        screenshot(page, "24-notifications")

        page.locator(".notification.unread button:has-text('Mark read')").first.click()
        # Waits by locator, not by evaluated script: the portal's CSP forbids eval.
        expect(page.locator("#notification-bell .bell-count")).to_have_text("1")
        # htmx keeps the old attributes until the swap settles.
        expect(page.locator(".notification.unread")).to_have_count(1)
        assert page.problems == []

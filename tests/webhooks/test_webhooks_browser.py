"""The Webhooks pages in a real headless Chromium: add an endpoint (secret once), then on its
page send a test event and retry a failed delivery with htmx, both reaching a real local
receiver, and see every attempt on the delivery log's timeline. Fails on any console error
(a CSP violation would be one); saves screenshots of each page."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

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


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    server = Receiver().start()
    yield server
    server.stop()


@pytest.fixture
def page(tenant, create_user):
    create_user(tenant, "admin", email="ada@acme.example", password=PASSWORD)
    with watched_page() as (_browser, page):
        yield page
        assert page.problems == []


def test_webhooks_in_a_real_browser(app, server, page, receiver, tenant, work):
    from services.core import events, transaction

    sign_in(page, server, "ada@acme.example")

    page.click("nav >> text=Webhooks")
    page.fill("#url", receiver.url("/dms"))
    page.check("input[value='document.created']")
    page.fill("#description", "CRM sync")
    page.click("button:has-text('Add endpoint')")
    secret = page.locator("#secret").input_value()
    assert secret.startswith("whsec_")
    endpoint_id = page.locator("#new-endpoint-id").inner_text()
    screenshot(page, "17-webhook-created-secret-once")

    receiver.script.extend([Answer(500, body=b'{"error": "database locked"}')])
    with app.app_context():
        events.emit(tenant.id, "document.created", {"document": {"id": "doc_1"}})
        transaction.commit()
    work()

    page.goto(f"{server}/webhooks")
    assert secret not in page.content()
    assert page.locator(f"#row-{endpoint_id}").is_visible()
    screenshot(page, "18-webhooks")

    page.click(f"#row-{endpoint_id} >> text=Deliveries")
    page.click("button:has-text('Send test event')")
    page.wait_for_selector("#test-result [data-delivery]")
    work()
    page.wait_for_selector("#test-result [data-status='succeeded']", timeout=10_000)

    failed = page.locator("[data-status='retrying']").first
    assert failed.is_visible()
    with page.expect_response(lambda r: r.url.endswith("/retry")):
        page.click("button:has-text('Retry now')")
    work()
    page.reload()
    assert page.locator("section [data-status='succeeded']").count() == 2
    assert page.locator("tr[data-attempt='2']").count() == 1
    assert len(receiver.requests) == 3
    screenshot(page, "19-webhook-delivery-log")

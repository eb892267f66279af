"""The matching rules page in a real headless Chromium: an admin creates a rule with the form,
sees it listed in order, disables it, and a regex bomb is refused beside its field. Fails on
any console error (a CSP violation included) but the refused form's 422; saves a
screenshot."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.browser.browser_support import BROWSER_TEST, screenshot, serving, sign_in, watched_page

pytestmark = BROWSER_TEST


@pytest.fixture
def server(app) -> Iterator[str]:
    with serving(app) as base:
        yield base


def test_an_admin_creates_disables_and_is_refused_a_bomb(server, admin):
    with watched_page() as (_browser, page):
        sign_in(page, server, admin.email)
        page.goto(f"{server}/matching-rules")
        page.fill("#name", "Invoices")
        page.fill("#pattern", "invoice bill")
        page.fill("#add_tags", "invoice, finance")
        page.fill("#set_metadata", "kind=invoice")
        page.click("#new-rule button[type=submit]")
        row = page.locator("#matching-rules-table tbody tr").first
        expect(row).to_contain_text("Invoices")
        expect(row).to_contain_text("tags invoice, finance")
        row.get_by_role("button", name="Disable Invoices").click()
        expect(page.locator("#matching-rules-table tbody tr").first).to_contain_text("disabled")
        assert page.problems == []
        screenshot(page, "matching-rules")

        page.fill("#name", "Bomb")
        page.select_option("#algorithm", "regex")
        page.fill("#pattern", "^(a+)+$")
        page.fill("#add_tags", "x")
        page.click("#new-rule button[type=submit]")
        expect(page.locator("[id='match.pattern-errors']")).to_contain_text("catastrophic")
        # The refused form answers 422 (so the browser logs the status), and nothing else.
        assert all("422" in problem for problem in page.problems)

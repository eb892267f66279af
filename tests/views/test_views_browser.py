"""Saved views in a real headless Chromium: a member filters the Documents page, saves it as a
view with fewer columns, the sidebar lists it and the table follows its columns, applying it
again from a plain list restores the filters, and deleting it empties the sidebar. Fails on
any console error (a CSP violation included); saves a screenshot."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.browser.browser_support import BROWSER_TEST, screenshot, serving, sign_in, watched_page
from tests.helpers import PASSWORD

pytestmark = BROWSER_TEST


@pytest.fixture
def server(app) -> Iterator[str]:
    with serving(app) as base:
        yield base


def test_a_member_saves_applies_and_deletes_a_view(server, tenant, create_user, upload):
    upload("Invoice March", ["finance"])
    upload("Team offsite", ["hr"])
    create_user(tenant, "member", email="mia@acme.example", password=PASSWORD)
    with watched_page() as (_browser, page):
        sign_in(page, server, "mia@acme.example")
        page.goto(f"{server}/documents?tag=finance")
        expect(page.locator("#documents-table tbody tr")).to_have_count(1)
        assert page.problems == [], "on load"

        page.click("#saved-views summary")
        page.fill("#view-name", "Finance")
        for column in ("status", "tags", "type", "modified"):
            page.uncheck(f"#save-view-form input[value={column}]")
        page.check("#save-view-form input[value=source]")
        page.click("#save-view-form button[type=submit]")
        expect(page.locator(".saved-view a")).to_have_text("Finance")
        headers = page.locator("#documents-table thead th[data-column]")
        expect(headers).to_have_text(["Size", "Source"])
        expect(page.locator("#documents-table td[data-column=source]")).to_have_text("API")
        screenshot(page, "38-saved-views")

        page.goto(f"{server}/documents")
        expect(page.locator("#documents-table tbody tr")).to_have_count(2)
        page.click(".saved-view a:has-text('Finance')")
        expect(page.locator("#documents-table tbody tr")).to_have_count(1)
        expect(page.locator("#f-tag")).to_have_value("finance")

        page.click(".saved-view button:has-text('Delete')")
        expect(page.locator(".saved-view")).to_have_count(0)
        assert page.problems == []


def test_save_this_view_saves_the_filters_typed_since_the_page_loaded(
    server, tenant, create_user, upload
):
    """The filter form swaps only the results (htmx): the save form must still carry what the
    page shows now, not what it showed when it loaded."""
    upload("Invoice March", ["finance"])
    upload("Team offsite", ["hr"])
    create_user(tenant, "member", email="mia@acme.example", password=PASSWORD)
    with watched_page() as (_browser, page):
        sign_in(page, server, "mia@acme.example")
        page.goto(f"{server}/documents")
        expect(page.locator("#documents-table tbody tr")).to_have_count(2)
        page.fill("#f-tag", "hr")
        expect(page.locator("#documents-table tbody tr")).to_have_count(1)
        page.click("#saved-views summary")
        page.fill("#view-name", "People")
        page.click("#save-view-form button[type=submit]")
        expect(page.locator(".saved-view a")).to_have_text("People")
        expect(page.locator("#documents-table tbody tr")).to_have_count(1)
        expect(page.locator("#documents-table tbody tr a.strong")).to_have_text("Team offsite")
        expect(page.locator("#f-tag")).to_have_value("hr")
        assert page.problems == []

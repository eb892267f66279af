"""Notes in a real headless Chromium: a member writes a note mentioning a colleague (htmx swaps
the panel in place, no reload), deletes it, and the same form works with JavaScript off.
Fails on any console error (a CSP violation included); saves a screenshot."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.browser.browser_support import BROWSER_TEST, screenshot, serving, sign_in, watched_page
from tests.helpers import PASSWORD, notifications_of

pytestmark = BROWSER_TEST


@pytest.fixture
def server(app) -> Iterator[str]:
    with serving(app) as base:
        yield base


def test_a_member_writes_and_deletes_a_note_in_place(app, server, tenant, create_user, document):
    create_user(tenant, "member", email="mia@acme.example", password=PASSWORD)
    ann = create_user(tenant, "member", email="ann@acme.example", password=PASSWORD)
    with watched_page() as (_browser, page):
        sign_in(page, server, "mia@acme.example")
        page.goto(f"{server}/documents/{document}")
        expect(page.locator("#no-notes")).to_be_visible()
        assert page.problems == [], "on load"
        page.fill("#note-form textarea", "Totals checked.\n@ann@acme.example please sign off.")
        page.click("#note-form button[type=submit]")
        expect(page.locator(".note-body")).to_have_count(1)
        expect(page.locator(".note-body").first).to_contain_text("please sign off")
        expect(page.locator("#note-form textarea")).to_have_value("")
        assert page.problems == [], "after the swap"
        assert page.url == f"{server}/documents/{document}"  # swapped, not posted and redirected
        screenshot(page, "33-document-notes")
        assert [t for t, _, _ in notifications_of(app, ann)] == ["note.mention"]

        page.click(".note button:has-text('Delete')")
        expect(page.locator("#no-notes")).to_be_visible()
        assert page.problems == []


def test_the_note_form_works_without_javascript(app, server, tenant, create_user, document):
    create_user(tenant, "admin", email="ada@acme.example", password=PASSWORD)
    with watched_page(java_script_enabled=False) as (_browser, page):
        sign_in(page, server, "ada@acme.example")
        page.goto(f"{server}/documents/{document}")
        page.fill("#note-form textarea", "Written without JavaScript <b>bold?</b>")
        page.click("#note-form button[type=submit]")
        page.wait_for_url(f"**/documents/{document}#notes")
        expect(page.locator(".note-body").first).to_have_text(
            "Written without JavaScript <b>bold?</b>"
        )
        page.click(".note button:has-text('Delete')")
        page.wait_for_load_state()
        expect(page.locator("#no-notes")).to_be_visible()
        assert page.problems == []

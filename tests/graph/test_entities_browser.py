"""The entity browser in a real headless Chromium: an admin creates an entity through the
portal, links it to another, sees the neighbourhood drawn as SVG beside its table, finds it
by an alias, and deletes it. Fails on any console error (a CSP violation would be one);
saves screenshots."""

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


def test_entity_browser_in_chromium(server, tenant, create_user, client, headers):
    create_user(tenant, "admin", email="ada@acme.example", password=PASSWORD)
    for name in ("Ada Lovelace", "Charles Babbage"):
        body = {"type": "person", "name": name}
        assert (
            client.post("/api/v1/knowledge-graph/entities", json=body, headers=headers).status_code
            == 201
        )
    with watched_page(("status of 422",)) as (_browser, page):
        sign_in(page, server, "ada@acme.example")
        page.click("nav >> text=Entities")
        expect(page.locator("#entities-table")).to_contain_text("Ada Lovelace")
        page.click("text=New entity")
        page.fill("#name", "Analytical Engine")
        page.fill("#entity-type", "project")
        page.fill("#aliases", "The Engine")
        page.click("button:has-text('Create entity')")
        expect(page.locator("#entity-name")).to_have_text("Analytical Engine")

        page.select_option("#direction", "in")
        page.fill("#relationship-type", "designed")
        page.select_option("#target_id", label="Charles Babbage (person)")
        page.click("button:has-text('Add relationship')")
        expect(page.locator("#relationships-table")).to_contain_text("designed")
        expect(page.locator("#entity-graph .graph-node")).to_have_count(2)
        expect(page.locator("#entity-graph .graph-edge")).to_have_count(1)
        expect(page.locator("#neighbours-table")).to_contain_text("Charles Babbage")
        screenshot(page, "entities-detail")

        page.locator("#entity-graph a.graph-node").nth(1).locator("circle").click()
        expect(page.locator("#entity-name")).to_have_text("Charles Babbage")

        page.goto(f"{server}/entities")
        page.fill("#q", "the eng")
        page.click("button:has-text('Filter')")
        expect(page.locator("#entities-table tbody tr")).to_have_count(1)
        page.click("#entities-table >> text=Analytical Engine")
        page.click("button:has-text('Delete entity')")
        expect(page.locator("#entities-table")).not_to_contain_text("Analytical Engine")
        screenshot(page, "entities-list")
        assert page.problems == []

"""The Documents page's grid of thumbnails in a real headless Chromium: the Grid toggle puts
`view=grid` in the address, the lazily loaded pictures load (under the portal's CSP: any
console error fails), a reload and a filter keep the grid, and List goes back to the table."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.browser.browser_support import BROWSER_TEST, screenshot, serving, sign_in, watched_page
from tests.helpers import PASSWORD
from tests.thumbnails.files import pdf_pages, png

pytestmark = BROWSER_TEST


@pytest.fixture
def server(app) -> Iterator[str]:
    with serving(app) as base:
        yield base


@pytest.fixture
def admin(tenant, create_user):
    return create_user(tenant, "admin", email="ada@acme.example", password=PASSWORD)


def test_the_grid_of_thumbnails_in_a_real_browser(server, admin, tenant, store_document, work):
    store_document(tenant, pdf_pages(2), "report.pdf", title="Annual report")
    store_document(tenant, png(300, 200, b"\x20\x80\x40"), "photo.png", title="Team photo")
    store_document(tenant, b"Minutes of the board\nItem one\n", "minutes.txt", title="Minutes")
    work()
    with watched_page() as (_browser, page):
        sign_in(page, server, "ada@acme.example")
        page.click("nav >> text=Documents")
        page.wait_for_selector("#documents-table")

        page.click(".view-toggle >> text=Grid")
        page.wait_for_selector("#documents-grid")
        assert "view=grid" in page.url
        images = page.locator("#documents-grid img")
        assert images.count() == 3
        assert sorted(images.evaluate_all("els => els.map(e => e.alt)")) == [
            "Annual report", "Minutes", "Team photo",
        ]  # fmt: skip
        assert images.evaluate_all("els => els.every(e => e.loading === 'lazy')")
        page.wait_for_function(
            "() => [...document.querySelectorAll('#documents-grid img')]"
            ".every(i => i.complete && i.naturalWidth > 0)"
        )
        screenshot(page, "80-documents-grid")

        page.reload()
        page.wait_for_selector("#documents-grid")
        page.fill("#f-title", "photo")  # htmx filters, and the grid stays
        page.wait_for_function("() => document.querySelectorAll('#documents-grid li').length === 1")
        assert "view=grid" in page.url and "title=photo" in page.url

        page.click(".view-toggle >> text=List")
        page.wait_for_selector("#documents-table")
        assert "view=grid" not in page.url and "title=photo" in page.url
        assert page.problems == []

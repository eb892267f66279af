"""The Documents page in a real headless Chromium: browse, search as you type (htmx) with
highlights, open a PDF's and an image's detail and see them previewed inline, see an HTML
file with a script only as its source (the script never runs), trash and restore in place
with htmx and with plain forms, and search without JavaScript. Fails on any console error
(a CSP violation would be one); saves screenshots of each page."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.browser.browser_support import BROWSER_TEST, screenshot, serving, sign_in, watched_page
from tests.fixture_files import png_bytes, render_gray, text_pdf
from tests.helpers import PASSWORD

pytestmark = BROWSER_TEST

HTML_WITH_SCRIPT = (
    b"<!doctype html><html><head><title>Trap</title></head><body><p>Trap page</p>"
    b"<script>alert('ran in the portal')</script></body></html>"
)


@pytest.fixture
def server(app) -> Iterator[str]:
    with serving(app) as base:
        yield base


@pytest.fixture
def library(tenant, store_document, work) -> dict[str, str]:
    made = {
        "pdf": store_document(
            tenant,
            text_pdf([["Quarterly report", "Revenue grew"]]),
            "q3.pdf",
            title="Q3 report",
            tags=["finance"],
        ),
        "png": store_document(
            tenant,
            png_bytes(*render_gray("HELLO WORLD")),
            "logo.png",
            title="Logo",
            tags=["brand"],
        ),
        "text": store_document(tenant, b"Minutes of the board\n", "minutes.txt", title="Minutes"),
        "html": store_document(tenant, HTML_WITH_SCRIPT, "trap.html", title="Trap <b>page</b>"),
    }
    work()
    return made


@pytest.fixture
def admin(tenant, create_user):
    return create_user(tenant, "admin", email="ada@acme.example", password=PASSWORD)


def test_documents_in_a_real_browser(server, admin, library):
    with watched_page() as (_browser, page):
        dialogs: list[str] = []
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        sign_in(page, server, "ada@acme.example")

        page.click("nav >> text=Documents")
        page.wait_for_selector("#documents-table")
        assert page.locator("#documents-table tbody tr").count() == 4
        screenshot(page, "30-documents")

        page.fill("#q", "report")  # htmx searches as one types
        page.wait_for_selector("#documents-table mark")
        rows = page.locator("#documents-table tbody tr")
        assert rows.count() == 1
        assert "q=report" in page.url  # the search is in the address, so it can be shared
        assert page.locator("#documents-table mark").first.inner_text().lower() == "report"
        screenshot(page, "31-documents-search")

        rows.first.locator("a.strong").click()
        page.wait_for_selector("iframe#preview")
        page.wait_for_timeout(1500)  # the PDF viewer draws the page
        assert any(f.url.endswith(f"/documents/{library['pdf']}/preview") for f in page.frames)
        assert page.locator("#versions-table tbody tr").count() == 1
        screenshot(page, "32-document-detail-pdf")

        page.goto(f"{server}/documents/{library['png']}")
        page.wait_for_function("() => document.querySelector('#preview').naturalWidth > 0")
        screenshot(page, "33-document-detail-image")

        page.goto(f"{server}/documents/{library['html']}")
        frame = page.frame_locator("iframe#preview")
        assert "<script>alert('ran in the portal')</script>" in frame.locator("body").inner_text()
        assert page.locator("h1#document-title").inner_text() == "Trap <b>page</b>"
        screenshot(page, "34-document-detail-html-as-text")
        assert dialogs == []  # the file's script never ran

        page.goto(f"{server}/documents")
        row = page.locator(f"#doc-{library['text']}")
        row.locator("button:has-text('Trash')").click()  # htmx swaps the row in place
        page.wait_for_selector(f"#doc-{library['text']}[data-status='deleted']")
        screenshot(page, "35-documents-trashed-in-place")
        page.locator(f"#doc-{library['text']} button:has-text('Restore')").click()
        page.wait_for_selector(f"#doc-{library['text']}[data-status='active']")

        page.goto(f"{server}/documents/{library['text']}")
        page.click("button:has-text('Trash')")  # a plain form on the detail page
        page.wait_for_selector("text=In the trash since")
        page.click(".breadcrumb >> text=Documents")
        page.click(".tabs >> text=Trash")
        expect(page.locator("#documents-table tbody tr")).to_have_count(1)  # waits for the page
        screenshot(page, "36-documents-trash")
        page.click(f"#doc-{library['text']} button:has-text('Restore')")
        page.wait_for_selector(f"#doc-{library['text']}", state="detached")  # leaves the tab
        page.reload()
        page.wait_for_selector("#document-results .empty-state")  # the trash is empty again
        assert page.problems == []


def test_search_works_without_javascript(server, admin, library):
    with watched_page(java_script_enabled=False) as (_browser, page):
        sign_in(page, server, "ada@acme.example")
        page.goto(f"{server}/documents")
        page.fill("#q", "minutes")
        page.click("button:has-text('Apply')")
        page.wait_for_url("**q=minutes**")
        expect(page.locator("#documents-table tbody tr")).to_have_count(1)
        assert page.locator("#documents-table mark").count() >= 1
        assert page.problems == []

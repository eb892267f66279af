"""Custom fields in a real headless Chromium: an admin creates fields on the fields page,
then sets values on a document's page with the form of each data type, with JavaScript
(htmx swaps the one row, a wrong date shows its error in place) and without (each form is a
plain POST that comes back to the page). Fails on any console error (a CSP violation would be
one); saves screenshots."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.browser.browser_support import BROWSER_TEST, screenshot, serving, sign_in, watched_page
from tests.helpers import PASSWORD

pytestmark = BROWSER_TEST


@pytest.fixture
def server(app) -> Iterator[str]:
    with serving(app) as base:
        yield base


@pytest.mark.parametrize("javascript", [True, False], ids=["with-js", "without-js"])
def test_fields_page_and_document_values_in_chromium(
    server, tenant, create_user, store_document, javascript
):
    create_user(tenant, "admin", email="ada@acme.example", password=PASSWORD)
    doc_id = store_document(tenant, b"Invoice 7\n", "invoice.txt", title="Invoice 7")
    suffix = "js" if javascript else "nojs"
    with watched_page(java_script_enabled=javascript) as (_browser, page):
        sign_in(page, server, "ada@acme.example")
        page.goto(f"{server}/custom-fields")
        for name, kind, options in (
            ("Due", "date", ""),
            ("Total", "monetary", ""),
            ("Kind", "select", "Invoice\nReceipt"),
        ):
            page.fill("#name", name)
            page.select_option("#data_type", kind)
            page.fill("#options", options)
            page.click("button:has-text('Create field')")
            page.wait_for_selector(f"#custom-fields-table >> text={name}")
        screenshot(page, f"customfields-page-{suffix}")

        page.goto(f"{server}/documents/{doc_id}")
        row = page.locator(".custom-field", has_text="Due")
        row.locator("input[type=date]").fill("2025-02-28")
        row.locator("button:has-text('Save')").click()
        page.wait_for_selector(".custom-field:has-text('Due') >> text=2025-02-28")
        total = page.locator(".custom-field", has_text="Total")
        total.locator("input[name=amount]").fill("12.5")
        total.locator("select[name=currency]").select_option("CHF")
        total.locator("button:has-text('Save')").click()
        page.wait_for_selector(".custom-field:has-text('Total') >> text=12.50 CHF")
        kind = page.locator(".custom-field", has_text="Kind")
        kind.locator("select[name=value]").select_option(label="Receipt")
        kind.locator("button:has-text('Save')").click()
        page.wait_for_selector(".custom-field:has-text('Kind') .custom-field-value >> text=Receipt")
        screenshot(page, f"customfields-document-{suffix}")
        assert page.problems == []

"""The /docs reference in a real headless Chromium: it shows the operations under the names
generated clients use, and a reader who authorizes with a key can try an upload from it."""

from __future__ import annotations

import pytest

from tests.browser.browser_support import BROWSER_TEST, screenshot, serving, watched_page

pytestmark = BROWSER_TEST


@pytest.fixture
def server(app):
    with serving(app) as base:
        yield base


def test_a_reader_tries_an_upload_from_the_reference(server, tenant, api_key, tmp_path):
    upload = tmp_path / "hello.txt"
    upload.write_bytes(b"Tried from the reference page.")

    with watched_page() as (_, page):
        page.set_default_timeout(10_000)
        page.goto(f"{server}/docs")
        operation = page.locator("#operations-documents-uploadDocument")
        operation.wait_for()
        assert "uploadDocument" in operation.inner_text()
        assert page.locator("#operations-documents-listDocuments").count() == 1

        page.click("button.authorize")
        dialog = page.locator(".dialog-ux")
        for scheme, value in (("bearerAuth", api_key[1]), ("tenantId", tenant.id)):
            form = dialog.locator(".auth-container", has_text=scheme)
            form.locator("input").fill(value)
            form.locator("button.authorize").click()
        dialog.locator("button.close-modal").click()

        operation.locator(".opblock-summary").click()
        operation.locator("button.try-out__btn").click()
        operation.locator("input[type=file]").set_input_files(str(upload))
        operation.locator("tr[data-property-name=title] input[type=text]").fill("From the docs")
        operation.locator("tr[data-property-name=tags] input[type=text]").fill("docs")
        operation.locator("tr[data-property-name=metadata] textarea").fill('{"dept": "docs"}')
        operation.locator("button.execute").click()
        status = operation.locator(".live-responses-table tr.response .response-col_status").first
        status.wait_for()
        screenshot(page, "docs-try-an-upload")

        body = operation.locator(".live-responses-table .microlight").first.inner_text()
        assert status.inner_text().strip() == "201"
        assert '"title": "From the docs"' in body
        assert page.problems == []

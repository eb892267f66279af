"""Share links in a real headless Chromium: an admin makes a link with a password on the
document's page (htmx) and copies its address; a visitor without JavaScript opens it, is
refused a wrong password, and downloads the file with the right one; after revoking, the
address answers 410. Fails on any console error; saves screenshots."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.browser.browser_support import BROWSER_TEST, screenshot, serving, sign_in, watched_page
from tests.sharing.conftest import HTML

pytestmark = BROWSER_TEST


@pytest.fixture
def server(app) -> Iterator[str]:
    with serving(app) as base:
        yield base


def test_make_a_link_and_download_through_it_without_javascript(
    server, admin, document_id, tmp_path
):
    with watched_page() as (_window, page):
        sign_in(page, server, admin.email)
        page.goto(f"{server}/documents/{document_id}")
        page.select_option("#expires_in_days", "30")
        page.fill("#max_downloads", "3")
        page.fill("#share_password", "open sesame")
        page.click("#share-create")
        page.wait_for_selector("#share-url")
        url = page.input_value("#share-url")
        screenshot(page, "sharing-created")
        assert page.locator("#share-links-table tbody tr").count() == 1
        assert page.problems == []

    # 403 on a wrong password is logged by Chromium as a failed load.
    with watched_page(("status of 403",), java_script_enabled=False, accept_downloads=True) as (
        _window,
        visitor,
    ):
        visitor.goto(url)
        assert visitor.locator("h1").inner_text() == "A shared document"
        screenshot(visitor, "sharing-password")
        visitor.fill("#password", "wrong")
        visitor.click("button[type=submit]")
        visitor.wait_for_selector("#password-error")
        visitor.fill("#password", "open sesame")
        with visitor.expect_download() as download:
            visitor.click("button[type=submit]")
        saved = tmp_path / "got"
        download.value.save_as(saved)
        assert saved.read_bytes() == HTML
        assert download.value.suggested_filename == "report.html"
        assert visitor.problems == []

    with watched_page(("status of 410",)) as (_window, page):
        sign_in(page, server, admin.email)
        page.goto(f"{server}/documents/{document_id}")
        page.once("dialog", lambda dialog: dialog.accept())
        page.click("#share-links-table button:has-text('Revoke')")
        page.wait_for_selector("#share-links-table tr[data-status=revoked]")
        response = page.goto(url)
        assert response.status == 410
        assert page.locator("h1").inner_text() == "Link no longer available"
        screenshot(page, "sharing-revoked")
        assert page.problems == []

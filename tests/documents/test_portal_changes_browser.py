"""Changing documents in the portal in a real headless Chromium: upload two files with the
file picker and one by drag and drop, each with its progress bar to completion; a refused
file in words; edit a title and a custom field; bulk-tag three documents and watch the job
finish; filter the list by a custom field. Fails on any console error (a CSP violation
included); saves screenshots."""

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


@pytest.fixture
def ada(tenant, create_user):
    return create_user(tenant, "admin", email="ada@acme.example", password=PASSWORD)


@pytest.fixture
def api(client, headers):
    def call(method: str, path: str, body: dict | None = None):
        response = client.open(f"/api/v1{path}", method=method, json=body, headers=headers)
        assert response.status_code < 300, response.get_json()
        return response.get_json()["data"]

    return call


def _drop(page, selector: str, name: str, text: str) -> None:
    """Drop a file made in the page on `selector`, as a person dragging it from the desktop."""
    transfer = page.evaluate_handle(
        """([name, text]) => {
            const transfer = new DataTransfer();
            transfer.items.add(new File([text], name, {type: "text/plain"}));
            return transfer;
        }""",
        [name, text],
    )
    page.dispatch_event(selector, "drop", {"dataTransfer": transfer})


def test_upload_two_files_with_progress_then_a_dropped_one_and_a_refusal(
    app, server, ada, tenant, store_document, monkeypatch
):
    store_document(tenant, b"already here\n", "old.txt", title="Old copy")
    with watched_page(ignore=("409",)) as (_browser, page):
        sign_in(page, server, ada.email)
        page.goto(f"{server}/documents")
        page.click("#upload-link")
        page.wait_for_selector("#upload-form.is-enhanced")  # the script has taken the form
        page.set_input_files(
            "#upload-file",
            [
                {"name": "first.txt", "mimeType": "text/plain", "buffer": b"first file\n"},
                {"name": "second.txt", "mimeType": "text/plain", "buffer": b"second file\n" * 999},
            ],
        )
        page.fill("#upload-tags", "inbox")
        expect(page.locator("#upload-list .upload-item")).to_have_count(2)
        page.click("#upload-submit")
        expect(page.locator("#upload-form")).to_have_attribute("data-finished", "2")
        expect(page.locator("#upload-list .upload-item.is-done")).to_have_count(2)
        bars = page.locator("#upload-list progress")
        assert [bars.nth(i).evaluate("b => b.value") for i in range(2)] == [100, 100]
        expect(page.locator("#upload-summary")).to_have_text("2 of 2 files added.")
        screenshot(page, "60-documents-upload-progress")

        _drop(page, "[data-drop-zone]", "dropped.txt", "dropped by hand\n")
        _drop(page, "[data-drop-zone]", "again.txt", "already here\n")
        page.click("#upload-submit")
        expect(page.locator("#upload-form")).to_have_attribute("data-finished", "2")
        refused = page.locator("#upload-list .upload-item.is-refused")
        expect(refused).to_have_count(1)
        expect(refused).to_contain_text(
            "“again.txt” was not added: The same file is already stored as “Old copy”."
        )
        screenshot(page, "61-documents-upload-refused")

        page.goto(f"{server}/documents?source=portal")
        expect(page.locator("#documents-table tbody tr")).to_have_count(3)
        assert page.problems == []


def test_edit_a_title_and_a_custom_field(server, ada, tenant, store_document, api):
    field = api("POST", "/custom-fields", {"name": "Amount", "dataType": "integer"})
    document_id = store_document(tenant, b"invoice\n", "invoice.txt", title="Invoice draft")
    with watched_page() as (_browser, page):
        sign_in(page, server, ada.email)
        page.goto(f"{server}/documents/{document_id}")
        page.click("#edit-link")
        page.fill("#edit-title", "Invoice 42")
        page.fill("#edit-tags", "finance, q3")
        page.fill("#edit-metadata", "dept = sales")
        page.click("#edit-form button[type=submit]")
        expect(page.locator("h1#document-title")).to_have_text("Invoice 42")
        expect(page.locator("#about-title + dl")).to_contain_text("sales")
        page.fill(f"#input-{field['id']}", "1200")
        page.click(f"#form-{field['id']} button:has-text('Save')")
        expect(page.locator(f"#value-{field['id']}")).to_have_text("1200")
        screenshot(page, "62-documents-edited")
        assert page.problems == []


def test_bulk_tag_three_documents_and_see_the_job_finish(
    app, server, ada, tenant, store_document, work
):
    ids = [store_document(tenant, f"d{n}\n".encode(), f"d{n}.txt") for n in range(3)]
    with watched_page() as (_browser, page):
        sign_in(page, server, ada.email)
        page.goto(f"{server}/documents")
        page.check("[data-select-all]")
        expect(page.locator("#bulk-count")).to_have_text("(3 selected)")
        page.select_option("#bulk-action", "addTags")
        page.fill("#bulk-tags", "reviewed")
        page.click("#bulk-apply")
        expect(page.locator("#job-progress")).to_be_visible()
        work()  # the worker runs the job while the page polls its progress
        expect(page.locator("#job-progress")).to_have_attribute(
            "data-status", "succeeded", timeout=8000
        )
        expect(page.locator("#job-counts")).to_have_text("3 of 3 documents done")
        screenshot(page, "63-documents-bulk-done")
        page.goto(f"{server}/documents?tag=reviewed")
        expect(page.locator("#documents-table tbody tr")).to_have_count(len(ids))
        assert page.problems == []


def test_filter_the_list_by_a_custom_field(server, ada, tenant, store_document, api):
    field = api("POST", "/custom-fields", {"name": "Amount", "dataType": "integer"})
    for title, amount in [("small", 5), ("large", 500), ("none", None)]:
        document_id = store_document(tenant, f"{title}\n".encode(), f"{title}.txt", title=title)
        if amount is not None:
            api("PATCH", f"/documents/{document_id}", {"customFields": {field["id"]: amount}})
    with watched_page() as (_browser, page):
        sign_in(page, server, ada.email)
        page.goto(f"{server}/documents")
        expect(page.locator("#documents-table tbody tr")).to_have_count(3)
        # Each change asks for the results; the next waits for the answer, as a person would
        # (htmx drops a request overtaken by the next one, and says so on the console).
        with page.expect_response(lambda r: "cf_field=" in r.url):
            page.select_option("#f-cf-field", field["id"])
        # Only the conditions an integer takes are offered.
        assert page.locator("#f-cf-op option[value=icontains]").is_disabled()
        expect(page.locator("#documents-table tbody tr")).to_have_count(3)  # no value yet
        with page.expect_response(lambda r: "cf_op=gt" in r.url):
            page.select_option("#f-cf-op", "gt")
        with page.expect_response(lambda r: "cf_value=10" in r.url):
            page.fill("#f-cf-value", "10")
        expect(page.locator("#documents-table tbody tr")).to_have_count(1)
        expect(page.locator("#documents-table tbody")).to_contain_text("large")
        assert "cf_op=gt" in page.url
        with page.expect_response(lambda r: "cf_op=isnull" in r.url):
            page.select_option("#f-cf-op", "isnull")
        expect(page.locator("#f-cf-value")).to_be_hidden()
        expect(page.locator("#documents-table tbody tr")).to_have_count(1)
        expect(page.locator("#documents-table tbody")).to_contain_text("none")
        screenshot(page, "64-documents-custom-field-filter")
        assert page.problems == []

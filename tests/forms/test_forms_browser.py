"""The public form page in a real headless Chromium, with JavaScript and without: fill in
every kind of field and a file, see the errors beside the fields, send, and reach the
thank-you page; the submission and its document exist. Then the portal's form editor, whose
preview follows the schema as it is typed (htmx). Fails on any console error (a CSP
violation would be one); saves screenshots."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from sqlalchemy import select

from tests.browser.browser_support import BROWSER_TEST, screenshot, serving, sign_in, watched_page
from tests.forms.conftest import EXPENSE_SCHEMA
from tests.helpers import PASSWORD

pytestmark = BROWSER_TEST


@pytest.fixture
def server(app) -> Iterator[str]:
    with serving(app) as base:
        yield base


@pytest.fixture
def form_id(client, headers) -> str:
    body = {"name": "Expense claim", "schema": EXPENSE_SCHEMA, "status": "published"}
    body["public"] = True
    body["description"] = "Claim back what you spent on the company's behalf."
    response = client.post("/api/v1/forms", json=body, headers=headers)
    assert response.status_code == 201
    return response.get_json()["data"]["id"]


def _submission(app):
    from extensions import db
    from models import FormSubmission

    with app.app_context():
        return db.session.scalar(select(FormSubmission))


@pytest.mark.parametrize("javascript", [True, False], ids=["with-js", "without-js"])
def test_public_form_in_chromium(app, server, form_id, tmp_path, javascript):
    receipt = tmp_path / "receipt.txt"
    receipt.write_bytes(b"Taxi, 12 EUR")
    suffix = "js" if javascript else "nojs"
    # The page answers 422 with the errors in it, which Chromium logs as a failed load.
    with watched_page(("status of 422",), java_script_enabled=javascript) as (_browser, page):
        page.goto(f"{server}/f/{form_id}")
        assert page.locator("h1").inner_text() == "Expense claim"
        box = page.locator("#hp-website").bounding_box()  # off-screen: people never see it
        assert box is None or box["x"] + box["width"] <= 0
        screenshot(page, f"forms-public-{suffix}")
        page.fill("#field-amount", "0")
        page.fill("#field-email", "not an email")
        page.click("button:has-text('Send')")
        page.wait_for_selector("#form-errors")
        assert page.locator("#field-name-errors").is_visible()
        assert page.locator("#field-amount-errors").is_visible()
        assert page.locator("#field-email-errors").is_visible()
        screenshot(page, f"forms-public-errors-{suffix}")
        page.fill("#field-name", "Ada Lovelace")
        page.fill("#field-amount", "12")
        page.fill("#field-email", "ada@example.com")
        page.select_option("#field-category", "travel")
        page.fill("#field-spentOn", "2026-11-20")
        page.check("#field-urgent")
        page.set_input_files("#field-receipt", str(receipt))
        page.click("button:has-text('Send')")
        page.wait_for_selector("#thanks")
        screenshot(page, f"forms-public-thanks-{suffix}")
        assert page.problems == []
    sub = _submission(app)
    assert sub.submitted_by == "public"
    assert sub.data["name"] == "Ada Lovelace" and sub.data["amount"] == 12
    assert sub.data["urgent"] is True and sub.data["category"] == "travel"
    assert sub.data["receipt"] == sub.document_ids[0]


def test_form_editor_preview_in_chromium(server, tenant, create_user):
    create_user(tenant, "admin", email="ada@acme.example", password=PASSWORD)
    with watched_page() as (_browser, page):
        sign_in(page, server, "ada@acme.example")
        page.click("nav >> text=Forms")
        page.click("text=New form")
        page.fill("#name", "Feedback")
        page.fill("#schema", json.dumps(EXPENSE_SCHEMA, indent=2))
        page.locator("#schema").press("End")  # a keyup: htmx asks for the preview
        page.wait_for_selector("#form-preview #field-category")
        screenshot(page, "forms-editor-preview")
        page.fill("#schema", '{"type": "object", "properties": {"a": {"$ref": "https://x/y"}}}')
        page.locator("#schema").press("End")
        page.wait_for_selector("#preview-problems")
        page.fill("#schema", json.dumps(EXPENSE_SCHEMA))
        page.check("#public")
        page.click("button:has-text('Create draft')")
        page.wait_for_selector("#form-status")
        page.click("button:has-text('Publish')")
        page.wait_for_selector("#public-link")
        screenshot(page, "forms-editor-published")
        assert page.problems == []

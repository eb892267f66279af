"""Approvals in a real headless Chromium: the approver signs in, sees the document waiting in
the Approvals inbox with its preview, opens it, approves with a comment (htmx swaps the page in
place) and finds the decision on the history timeline. Fails on any console error (a CSP
violation would be one); saves screenshots."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.browser_support import BROWSER_TEST, screenshot, serving, sign_in, watched_page
from tests.helpers import PASSWORD, auth_headers

pytestmark = BROWSER_TEST


def test_approve_in_a_real_browser(
    app, client, tenant, create_user, create_key, store_document, work
):
    ann = create_user(tenant, "member", email="ann@acme.example", password=PASSWORD)
    create_user(tenant, "admin", email="dee@acme.example")  # the Finance step's approver
    _key, secret = create_key(tenant)
    headers = auth_headers(secret, tenant.id)
    document_id = store_document(tenant, b"Invoice 42\nTotal: 1,200 EUR\n", "invoice-42.txt")
    work()  # extract the text for the preview
    definition = client.post(
        "/api/v1/workflows",
        json={
            "name": "Invoice approval",
            "steps": [
                {"name": "Manager", "approvers": [{"user": ann.id}]},
                {"name": "Finance", "approvers": [{"role": "admin"}]},
            ],
        },
        headers=headers,
    ).get_json()["data"]
    started = client.post(
        "/api/v1/workflows/instances",
        json={"definitionId": definition["id"], "documentId": document_id},
        headers=headers,
    )
    assert started.status_code == 201
    wfi = started.get_json()["data"]["id"]

    with serving(app) as base, watched_page() as (_browser, page):
        sign_in(page, base, "ann@acme.example")
        page.click("nav >> text=Approvals")
        expect(page.locator("#waiting .approval")).to_have_count(1)
        expect(page.locator("#waiting .approval-preview")).to_contain_text("Total: 1,200 EUR")
        screenshot(page, "25-approvals-inbox")

        page.click(f"#waiting a[href='/approvals/{wfi}']")
        page.wait_for_url(f"**/approvals/{wfi}")
        page.fill("#comment", "Matches the order")
        page.click("#decide button:has-text('Approve')")
        expect(page.locator(".flash-success")).to_have_text("Approved.")
        expect(page.locator("#instance-state")).to_have_text("in progress")
        expect(page.locator("#history li[data-action='approved']")).to_contain_text(
            "Matches the order"
        )
        expect(page.locator(".steps .current")).to_contain_text("dee@acme.example")
        screenshot(page, "26-approval-timeline")
        assert page.problems == []

"""The copilot's Ask page in a real headless Chromium: a member asks a question, reads the
answer with its cited passage, follows the citation to the document, asks a follow-up, and
finds the conversation in their list. Fails on any console error (a CSP violation would be
one); saves screenshots."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.browser_support import BROWSER_TEST, screenshot, serving, sign_in, watched_page
from tests.helpers import PASSWORD
from tests.support import run_jobs, stored_document

pytestmark = BROWSER_TEST

HARBOUR = (
    "Harbour supply contract.\n\nThe notice period of the Harbour contract is 90 days. "
    "A termination penalty of 2,000 euros applies before the first year."
)


def test_ask_in_a_real_browser(app, tenant, create_user):
    create_user(tenant, "member", email="ann@acme.example", password=PASSWORD)
    document_id = stored_document(app, tenant.id, HARBOUR.encode(), "harbour.txt", title="Harbour")
    run_jobs(app)

    with serving(app) as base, watched_page() as (_browser, page):
        sign_in(page, base, "ann@acme.example")
        page.click("nav >> text=Ask")
        page.fill("#message", "What is the notice period of the Harbour contract?")
        page.click("button:has-text('Ask')")
        expect(page.locator(".flash-success")).to_have_text("Answered.")
        answer = page.locator(".message-assistant")
        expect(answer.locator(".message-content")).to_contain_text("90 days")
        expect(answer.locator(".citation a")).to_have_text("[1] Harbour")
        expect(answer.locator(".citation blockquote")).to_contain_text("90 days")
        screenshot(page, "40-copilot-answer")

        page.fill("#message", "And the termination penalty?")
        page.click("button:has-text('Ask')")
        expect(page.locator(".message-assistant").last).to_contain_text("2,000 euros")
        expect(page.locator("#my-conversations li")).to_have_count(1)

        page.locator(".citation a").first.click()
        page.wait_for_url(f"**/documents/{document_id}")

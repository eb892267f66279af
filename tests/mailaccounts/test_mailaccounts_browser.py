"""The Mail accounts page in a real headless Chromium against the real Dovecot of the tests: an
admin adds an account with the form, tests it, has it polled now and sees its last poll and
then its error, with every action in view. Fails on any console error (a CSP violation
included); saves a screenshot."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect
from sqlalchemy import select

from extensions import db
from models import MailAccount
from tests.browser.browser_support import BROWSER_TEST, screenshot, serving, sign_in, watched_page
from tests.mailaccounts.conftest import mail_documents, message
from tests.mailaccounts.dovecot import PASSWORD

pytestmark = BROWSER_TEST


@pytest.fixture
def server(app, trusted) -> Iterator[str]:
    with serving(app) as base:
        yield base


def test_an_admin_adds_tests_and_polls_an_account_and_sees_its_error(
    app, server, admin, tenant, dovecot, mailbox, work
):
    mailbox.deliver(
        message(sender="scanner@acme.example", attachments=[("s.txt", b"scan\n", "text/plain")])
    )
    with watched_page() as (_browser, page):
        sign_in(page, server, admin.email)
        page.goto(f"{server}/mail-accounts")
        page.fill("#name", "Scanner inbox")
        page.fill("#imapHost", "127.0.0.1")
        page.select_option("#security", "ssl")
        page.fill("#imapPort", str(dovecot.imaps_port))
        page.fill("#username", mailbox.name)
        page.fill("#password", PASSWORD)
        page.fill("#pollMinutes", "15")
        page.fill("#fromContains", "scanner")
        page.fill("#tags", "scans")
        page.click("#new-account button[type=submit]")
        row = page.locator("#mail-accounts-table tbody tr").first
        expect(row).to_contain_text("Scanner inbox")
        expect(row.locator("[data-field=lastPolledAt]")).to_have_text("never")
        assert PASSWORD not in page.content()

        row.get_by_role("button", name="Test").click()
        expect(page.get_by_text("connected; INBOX holds 1 message.")).to_be_visible()

        page.locator("#mail-accounts-table tbody tr").first.get_by_role(
            "button", name="Poll now"
        ).click()
        work()
        page.goto(f"{server}/mail-accounts")
        row = page.locator("#mail-accounts-table tbody tr").first
        expect(row.locator("[data-field=lastPolledAt] time")).to_be_visible()
        expect(row.locator("[data-field=lastError]")).to_have_text("—")
        assert [d.filename for d in mail_documents(app, tenant.id)] == ["s.txt"]
        # Every action fits the card: none is cut off by the table's edge.
        for action in ("Test", "Poll now", "Disable", "Delete Scanner inbox"):
            expect(row.get_by_role("button", name=action, exact=True)).to_be_in_viewport(ratio=1)
        screenshot(page, "mail-accounts")

        with app.app_context():  # the server goes away: the next poll fails, and says why
            account = db.session.scalars(select(MailAccount)).one()
            account.imap_port = 1
            db.session.commit()
        page.locator("#mail-accounts-table tbody tr").first.get_by_role(
            "button", name="Poll now"
        ).click()
        work()
        page.goto(f"{server}/mail-accounts")
        expect(page.locator("[data-field=lastError]").first).to_contain_text(
            "MAIL_CONNECTION_REFUSED"
        )
        assert page.problems == []

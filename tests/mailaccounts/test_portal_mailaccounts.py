"""The Mail accounts page: admins add an account with a rule (the password never shown back),
see each account's last poll and error, test it, poll it now and delete it; members are
refused; every form needs its CSRF token; another tenant's account is 404."""

from __future__ import annotations

from sqlalchemy import select

from tests.helpers import post, sign_in
from tests.mailaccounts.conftest import message
from tests.mailaccounts.dovecot import PASSWORD


def _form(dovecot, mailbox, **extra) -> dict[str, str]:
    return {
        "name": "Scanner inbox",
        "imapHost": "127.0.0.1",
        "imapPort": str(dovecot.imaps_port),
        "security": "ssl",
        "username": mailbox.name,
        "password": PASSWORD,
        "folder": "INBOX",
        "pollMinutes": "15",
        "fromContains": "scanner",
        "subjectContains": "",
        "tags": "scans, inbox",
        "afterImport": "markRead",
        "moveTo": "",
        **extra,
    }


def _accounts(app):
    from extensions import db
    from models import MailAccount

    with app.app_context():
        rows = db.session.scalars(select(MailAccount)).all()
        for row in rows:
            db.session.expunge(row)
        return rows


def test_an_admin_adds_an_account_and_sees_its_last_poll_and_error(
    app, admin_client, dovecot, mailbox, trusted, poll, work
):
    response = post(admin_client, "/mail-accounts", _form(dovecot, mailbox))

    assert response.status_code == 302
    (account,) = _accounts(app)
    assert account.rules[0]["fromContains"] == "scanner"
    assert account.rules[0]["tags"] == ["scans", "inbox"]
    assert account.poll_minutes == 15
    page = admin_client.get("/mail-accounts").get_data(as_text=True)
    assert "Scanner inbox" in page and mailbox.name in page and "never" in page
    assert PASSWORD not in page

    tested = post(admin_client, f"/mail-accounts/{account.id}/test", follow_redirects=True)
    assert "connected; INBOX holds 0 messages" in tested.get_data(as_text=True)

    mailbox.deliver(
        message(sender="scanner@acme.example", attachments=[("s.txt", b"scan\n", "text/plain")])
    )
    polled = post(admin_client, f"/mail-accounts/{account.id}/poll")
    assert polled.status_code == 302
    work()
    page = admin_client.get("/mail-accounts").get_data(as_text=True)
    assert "never" not in page.split('data-field="lastPolledAt"')[1][:200]

    post(admin_client, f"/mail-accounts/{account.id}/enabled", {"enabled": "0"})
    with app.app_context():
        from extensions import db
        from models import MailAccount

        row = db.session.get(MailAccount, account.id)
        row.enabled = True
        row.security = "starttls"
        row.imap_port = 1
        db.session.commit()
    poll(account.id)
    page = admin_client.get("/mail-accounts").get_data(as_text=True)
    assert "MAIL_CONNECTION_REFUSED" in page and "refused the connection" in page
    failed = post(admin_client, f"/mail-accounts/{account.id}/test", follow_redirects=True)
    assert "MAIL_CONNECTION_REFUSED" in failed.get_data(as_text=True)

    deleted = post(admin_client, f"/mail-accounts/{account.id}/delete")
    assert deleted.status_code == 302 and _accounts(app) == []


def test_the_form_says_what_is_wrong(app, admin_client, dovecot, mailbox):
    response = post(
        admin_client, "/mail-accounts", _form(dovecot, mailbox, pollMinutes="0", afterImport="move")
    )

    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "greater than or equal to 1" in page and "moveTo" in page
    assert PASSWORD not in page  # the password field is never filled back in
    assert _accounts(app) == []


def test_csrf_members_and_other_tenants(
    app, client, admin_client, tenant, other_tenant, create_user, dovecot, mailbox
):
    no_token = admin_client.post("/mail-accounts", data=_form(dovecot, mailbox))
    assert no_token.status_code in (400, 403) and _accounts(app) == []

    post(admin_client, "/mail-accounts", _form(dovecot, mailbox))
    (account,) = _accounts(app)
    admin_client.post("/logout")

    intruder = create_user(other_tenant, "admin", email="admin@globex.example")
    other = app.test_client()
    assert sign_in(other, other_tenant.id, intruder.email).status_code == 302
    for action in ("test", "poll", "delete"):
        assert post(other, f"/mail-accounts/{account.id}/{action}").status_code == 404
    assert account.id not in other.get("/mail-accounts").get_data(as_text=True)

    member = create_user(tenant, "member", email="m@acme.example")
    as_member = app.test_client()
    sign_in(as_member, tenant.id, member.email)
    assert as_member.get("/mail-accounts").status_code == 403
    assert post(as_member, f"/mail-accounts/{account.id}/delete").status_code == 403

"""Mail-account fixtures: a real Dovecot for the whole session (tests/mailaccounts/dovecot.py),
a mailbox of its own per test, messages made with the standard library, and accounts made
through the API, as an integrator would."""

from __future__ import annotations

import imaplib
import ssl
from collections.abc import Iterator
from email.message import EmailMessage

import pytest

from tests.mailaccounts.dovecot import PASSWORD, Dovecot, User


@pytest.fixture(scope="session")
def dovecot(tmp_path_factory) -> Iterator[Dovecot]:
    server = Dovecot(tmp_path_factory.mktemp("dovecot"))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def dovecot_without_tls(tmp_path_factory) -> Iterator[Dovecot]:
    """A server that offers no STARTTLS (ssl = no)."""
    server = Dovecot(tmp_path_factory.mktemp("dovecot-plain"), ssl=False)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def mailbox(dovecot) -> User:
    return dovecot.add_user()


@pytest.fixture
def trusted(app, dovecot, monkeypatch):
    """The operator's settings for the local server: private addresses allowed, its CA trusted."""
    monkeypatch.setitem(app.config, "DMS_MAIL_ALLOW_PRIVATE", True)
    monkeypatch.setitem(app.config, "DMS_MAIL_CA_BUNDLE", str(dovecot.ca))


def message(
    *,
    subject: str = "Invoice",
    sender: str = "billing@supplier.example",
    message_id: str | None = "<m1@supplier.example>",
    body: str = "Please find the invoice attached.",
    attachments: list[tuple[str, bytes, str]] | None = None,
) -> bytes:
    """A message with attachments given as (filename, content, "type/subtype")."""
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "scans@acme.example"
    msg["Subject"] = subject
    if message_id:
        msg["Message-ID"] = message_id
    msg.set_content(body)
    for filename, content, mime in attachments or []:
        maintype, subtype = mime.split("/")
        msg.add_attachment(content, maintype=maintype, subtype=subtype, filename=filename)
    return bytes(msg)


PDF = (
    b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]"
    b"/Count 1>>endobj 3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\n"
    b"trailer<</Root 1 0 R>>\n%%EOF\n"
)


@pytest.fixture
def make_account(client, headers, dovecot, mailbox, trusted):
    """A mail account of `mailbox` on the local Dovecot, made through the API; its JSON."""

    def factory(user: User | None = None, **body) -> dict:
        user = user or mailbox
        payload = {
            "name": "Scans",
            "imapHost": "127.0.0.1",
            "imapPort": dovecot.imaps_port,
            "security": "ssl",
            "username": user.name,
            "password": PASSWORD,
            **body,
        }
        response = client.post("/api/v1/mail-accounts", json=payload, headers=headers)
        assert response.status_code == 201, response.get_json()
        return response.get_json()["data"]

    return factory


def server_view(dovecot: Dovecot, user: User, folder: str = "INBOX") -> list[tuple[str, bool]]:
    """(subject, seen) of each message in `folder`, read over IMAP as a mail client would."""
    client = imaplib.IMAP4_SSL(
        "127.0.0.1", dovecot.imaps_port, ssl_context=ssl.create_default_context(cafile=dovecot.ca)
    )
    try:
        client.login(user.name, PASSWORD)
        client.select(folder, readonly=True)
        _typ, data = client.uid("FETCH", "1:*", "(FLAGS BODY.PEEK[HEADER.FIELDS (SUBJECT)])")
        found = []
        for item in data:
            if isinstance(item, tuple):
                subject = item[1].decode().partition(":")[2].strip()
                found.append((subject, b"\\Seen" in item[0]))
        return found
    finally:
        client.logout()


@pytest.fixture
def poll(app, tenant):
    """Run one poll of an account here, as the job does; what it returns."""
    from jobs.mailaccounts import poll_account

    def run(account_id: str, tenant_id: str | None = None):
        with app.app_context():
            return poll_account(tenant_id or tenant.id, account_id)

    return run


def mail_documents(app, tenant_id: str) -> list:
    from sqlalchemy import select

    from extensions import db
    from models import Document

    with app.app_context():
        rows = db.session.scalars(
            select(Document).where(Document.tenant_id == tenant_id).order_by(Document.created_at)
        ).all()
        for row in rows:
            db.session.expunge(row)
        return rows


def records(app, account_id: str) -> list:
    from sqlalchemy import select

    from extensions import db
    from models import MailMessage

    with app.app_context():
        rows = db.session.scalars(
            select(MailMessage)
            .where(MailMessage.account_id == account_id)
            .order_by(MailMessage.uid)
        ).all()
        for row in rows:
            db.session.expunge(row)
        return rows

"""Polling against a real Dovecot: attachments become documents through the upload path with
their mail source, once; the rules (from, subject, attachments only, the body, tags) and the
after-import actions (mark read, move, delete); types and sizes refused with a reason; the
bounds (500 attachments, a 50 MiB message, nested parts, a batch per run); failures backed
off and told to the admins; the due accounts booked by the periodic job."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from sqlalchemy import select

import clock
from tests.helpers import notifications_of
from tests.mailaccounts.conftest import PDF, mail_documents, message, records, server_view

TEXT = b"Invoice 2026-117\nTotal: 120.00 EUR\n"


def test_attachments_become_documents_once_and_the_message_is_marked_read(
    app, client, headers, tenant, dovecot, mailbox, make_account, poll
):
    mailbox.deliver(
        message(
            attachments=[("invoice.pdf", PDF, "application/pdf"), ("notes.txt", TEXT, "text/plain")]
        )
    )
    account = make_account(rules=[{"tags": ["mail", "invoices"]}])

    done = poll(account["id"])

    assert done == {"messages": 1, "documents": 2, "more": False}
    docs = mail_documents(app, tenant.id)
    assert sorted(d.filename for d in docs) == ["invoice.pdf", "notes.txt"]
    assert {d.content_type for d in docs} == {"application/pdf", "text/plain"}
    for doc in docs:
        assert doc.source == {
            "type": "mail",
            "accountId": account["id"],
            "messageId": "<m1@supplier.example>",
            "from": "billing@supplier.example",
            "subject": "Invoice",
        }
        assert [t.tag for t in doc.tags] == ["invoices", "mail"]
        shown = client.get(f"/api/v1/documents/{doc.id}", headers=headers).get_json()["data"]
        assert shown["source"]["type"] == "mail" and shown["source"]["accountId"] == account["id"]
    assert server_view(dovecot, mailbox) == [("Invoice", True)]
    (record,) = records(app, account["id"])
    assert record.outcome == "imported" and record.pending_action is None
    assert {p["sha256"] for p in record.parts} == {d.sha256 for d in docs}

    # The same message again (delivered twice, or the flag lost): nothing new.
    mailbox.deliver(message(attachments=[("invoice.pdf", PDF, "application/pdf")]))
    assert poll(account["id"])["documents"] == 0
    assert len(mail_documents(app, tenant.id)) == 2
    fetched = client.get(f"/api/v1/mail-accounts/{account['id']}", headers=headers).get_json()
    assert fetched["data"]["lastPolledAt"] is not None and fetched["data"]["lastError"] is None


def test_rules_choose_the_messages_and_what_happens_to_them(
    app, tenant, dovecot, mailbox, make_account, poll
):
    pdf = [("a.pdf", PDF, "application/pdf")]
    mailbox.deliver(
        message(
            subject="Receipt 1", sender="shop@store.example", message_id="<r1@x>", attachments=pdf
        )
    )
    mailbox.deliver(
        message(
            subject="Contract",
            sender="legal@firm.example",
            message_id="<c1@x>",
            attachments=[("c.txt", b"Contract\n", "text/plain")],
        )
    )
    mailbox.deliver(
        message(
            subject="Newsletter",
            sender="news@firm.example",
            message_id="<n1@x>",
            body="No attachment here.",
        )
    )
    mailbox.deliver(
        message(
            subject="Memo",
            sender="boss@acme.example",
            message_id="<m1@x>",
            body="Please archive this memo.",
        )
    )
    account = make_account(
        rules=[
            {"fromContains": "STORE.example", "afterImport": "delete", "tags": ["receipts"]},
            {"subjectContains": "contract", "afterImport": "move", "moveTo": "Archive"},
            {"fromContains": "boss@", "attachmentsOnly": False, "importBody": True},
        ]
    )

    assert poll(account["id"]) == {"messages": 4, "documents": 3, "more": False}

    docs = {d.source["subject"]: d for d in mail_documents(app, tenant.id)}
    assert set(docs) == {"Receipt 1", "Contract", "Memo"}
    assert [t.tag for t in docs["Receipt 1"].tags] == ["receipts"]
    assert docs["Memo"].filename == "Memo.txt" and docs["Memo"].content_type == "text/plain"
    # Receipt deleted, contract moved (as it was), the newsletter untouched (no rule), the
    # memo read.
    assert sorted(server_view(dovecot, mailbox)) == [("Memo", True), ("Newsletter", False)]
    assert server_view(dovecot, mailbox, "Archive") == [("Contract", False)]
    outcomes = {r.message_id: r.outcome for r in records(app, account["id"])}
    assert outcomes == {
        "<r1@x>": "imported",
        "<c1@x>": "imported",
        "<n1@x>": "skipped",
        "<m1@x>": "imported",
    }


def test_types_and_sizes_are_refused_per_attachment_with_the_reason(
    app, tenant, dovecot, mailbox, make_account, poll, monkeypatch
):
    monkeypatch.setitem(app.config, "DMS_MAX_UPLOAD_BYTES", 1000)
    mailbox.deliver(
        message(
            attachments=[
                ("ok.txt", TEXT, "text/plain"),
                ("big.txt", b"x" * 2000, "text/plain"),
                ("tool.exe", b"MZ\x90\x00" + b"\x00" * 200, "application/octet-stream"),
                ("copy.txt", TEXT, "text/plain"),
            ]
        )
    )
    mailbox.deliver(
        message(
            message_id="<only-bad@x>",
            attachments=[("big.pdf", PDF + b"%" * 2000, "application/pdf")],
        )
    )
    account = make_account()

    assert poll(account["id"])["documents"] == 1

    found = {r.message_id: r for r in records(app, account["id"])}
    first, second = found["<m1@supplier.example>"], found["<only-bad@x>"]
    reasons = {p["filename"]: p.get("reason") for p in first.parts}
    assert reasons["ok.txt"] is None
    assert reasons["big.txt"] == "over the upload limit of 1000 bytes"
    assert "is not imported" in reasons["tool.exe"]
    assert reasons["copy.txt"] == "the same content as another part of the message"
    assert second.outcome == "refused"
    # A message nothing could be taken from stays unread for a person to look at.
    assert sorted(server_view(dovecot, mailbox)) == [("Invoice", False), ("Invoice", True)]


def test_five_hundred_attachments_in_one_message(app, tenant, mailbox, make_account, poll):
    files = [(f"page-{n:03}.txt", f"Page {n}\n".encode(), "text/plain") for n in range(500)]
    mailbox.deliver(message(attachments=files))
    account = make_account()

    assert poll(account["id"])["documents"] == 500
    assert len({d.sha256 for d in mail_documents(app, tenant.id)}) == 500


def test_a_50_mib_message(app, tenant, mailbox, make_account, poll):
    big = b"%PDF-1.4\n" + b"0123456789abcdef" * (2 * 1024 * 1024) + b"\n%%EOF\n"  # 32 MiB
    raw = message(attachments=[("scan.pdf", big, "application/pdf")])
    assert len(raw) > 40 * 1024 * 1024  # base64: some 43 MiB on the wire
    mailbox.deliver(raw)
    account = make_account()

    assert poll(account["id"])["documents"] == 1
    (doc,) = mail_documents(app, tenant.id)
    assert doc.size == len(big)


def test_a_message_over_the_message_limit_is_refused_unread(
    app, mailbox, dovecot, make_account, poll, monkeypatch
):
    monkeypatch.setitem(app.config, "DMS_MAIL_MAX_MESSAGE_BYTES", 10_000)
    mailbox.deliver(message(attachments=[("a.txt", b"y" * 20_000, "text/plain")]))
    account = make_account()

    assert poll(account["id"])["documents"] == 0
    (record,) = records(app, account["id"])
    assert (
        record.outcome == "refused" and "over the limit of 10000 bytes" in record.parts[0]["reason"]
    )
    assert server_view(dovecot, mailbox) == [("Invoice", False)]


def _nested(depth: int, message_id: str) -> bytes:
    lines = [
        b"From: bomb@x.example",
        b"Subject: Nested",
        f"Message-ID: {message_id}".encode(),
        b"MIME-Version: 1.0",
    ]
    for level in range(depth):
        lines += [
            f'Content-Type: multipart/mixed; boundary="b{level}"'.encode(),
            b"",
            f"--b{level}".encode(),
        ]
    lines += [
        b"Content-Type: text/plain",
        b'Content-Disposition: attachment; filename="x.txt"',
        b"",
        b"deep",
    ]
    for level in reversed(range(depth)):
        lines.append(f"--b{level}--".encode())
    return b"\r\n".join(lines) + b"\r\n"


def test_a_mime_bomb_of_nested_parts_is_refused(app, tenant, mailbox, make_account, poll):
    mailbox.deliver(_nested(5000, "<bomb@x>"))  # deeper than the parser can go
    mailbox.deliver(_nested(50, "<deep@x>"))  # deeper than MAX_DEPTH
    mailbox.deliver(_nested(5, "<fine@x>"))
    wide = message(
        message_id="<wide@x>",
        attachments=[(f"{n}.bin", b"", "application/octet-stream") for n in range(2500)],
    )
    mailbox.deliver(wide)
    account = make_account()

    assert poll(account["id"]) == {"messages": 4, "documents": 1, "more": False}
    found = {r.message_id: r for r in records(app, account["id"])}
    for nested in ("<bomb@x>", "<deep@x>"):
        assert found[nested].outcome == "refused"
        assert "nested deeper than 20 levels" in found[nested].parts[0]["reason"]
    assert found["<wide@x>"].outcome == "refused"
    assert "more than 2000 MIME parts" in found["<wide@x>"].parts[0]["reason"]
    assert found["<fine@x>"].outcome == "imported"


def test_a_crash_before_the_flag_change_imports_nothing_twice(
    app, tenant, dovecot, mailbox, make_account, poll, monkeypatch
):
    """The documents and the message's record commit together; the flag change comes after.
    Fail it (as a crash there would): the next run does it, and imports nothing again."""
    from services.mailaccounts import polling

    mailbox.deliver(message(attachments=[("a.txt", TEXT, "text/plain")]))
    account = make_account()
    done = polling.apply_action

    def lost(*args):
        raise SystemExit("killed between the commit and the flag change")

    monkeypatch.setattr(polling, "apply_action", lost)
    with pytest.raises(SystemExit):
        poll(account["id"])
    assert len(mail_documents(app, tenant.id)) == 1
    assert server_view(dovecot, mailbox) == [("Invoice", False)]
    assert records(app, account["id"])[0].pending_action == "markRead"

    monkeypatch.setattr(polling, "apply_action", done)
    assert poll(account["id"]) == {"messages": 0, "documents": 0, "more": False}
    assert len(mail_documents(app, tenant.id)) == 1
    assert server_view(dovecot, mailbox) == [("Invoice", True)]
    assert records(app, account["id"])[0].pending_action is None


def test_a_poll_takes_a_bounded_batch_and_goes_on_from_there(
    app, tenant, mailbox, make_account, poll, monkeypatch
):
    monkeypatch.setitem(app.config, "DMS_MAIL_BATCH_MESSAGES", 3)
    for n in range(7):
        mailbox.deliver(
            message(
                message_id=f"<b{n}@x>",
                subject=f"S{n}",
                attachments=[(f"{n}.txt", f"doc {n}\n".encode(), "text/plain")],
            )
        )
    account = make_account()

    assert poll(account["id"]) == {"messages": 3, "documents": 3, "more": True}
    assert poll(account["id"]) == {"messages": 3, "documents": 3, "more": True}
    assert poll(account["id"]) == {"messages": 1, "documents": 1, "more": False}
    assert len(mail_documents(app, tenant.id)) == 7


def test_failures_back_off_and_tell_the_admins(
    app, client, headers, tenant, admin, mailbox, make_account, poll
):
    account = make_account(password="wrong-password", pollMinutes=10)
    url = f"/api/v1/mail-accounts/{account['id']}"
    started = clock.now()

    for failures in (1, 2):
        assert poll(account["id"])["error"] == "MAIL_LOGIN_FAILED"
        data = client.get(url, headers=headers).get_json()["data"]
        assert data["failures"] == failures and data["lastErrorCode"] == "MAIL_LOGIN_FAILED"
        assert "refused the user name or the password" in data["lastError"]
        assert notifications_of(app, admin) == []
    wait = datetime.fromisoformat(data["nextPollAt"]) - started
    assert timedelta(minutes=39) < wait <= timedelta(minutes=41)  # 10 min doubled twice

    poll(account["id"])
    ((kind, _title, details),) = notifications_of(app, admin)
    assert kind == "mail_account.failing" and details["mailAccountId"] == account["id"]
    poll(account["id"])
    assert len(notifications_of(app, admin)) == 1  # once a day per account

    client.patch(url, json={"password": "imap-secret-Pa55"}, headers=headers)
    assert "error" not in poll(account["id"])
    data = client.get(url, headers=headers).get_json()["data"]
    assert data["failures"] == 0 and data["lastError"] is None and data["lastErrorCode"] is None


def test_the_periodic_job_books_the_due_accounts(app, client, headers, make_account, mailbox):
    from extensions import db
    from jobs import mailaccounts as jobs
    from jobs.worker import periodic_jobs
    from models import MailAccount
    from services.core import queue

    assert jobs.POLL_DUE in periodic_jobs()
    due = make_account(name="due")
    later = make_account(name="later")
    off = make_account(name="off", enabled=False)
    with app.app_context():
        row = db.session.get(MailAccount, later["id"])
        row.next_poll_at = clock.now() + timedelta(minutes=5)
        db.session.commit()
        queue.queue().empty()

        assert jobs.poll_due() == 1
        queued = [j.args for j in queue.queue().get_jobs()]
        assert queued == [("acme", due["id"])]
        assert jobs.poll_due() == 0  # its next poll moved on
        assert (
            db.session.scalar(select(MailAccount.next_poll_at).where(MailAccount.id == off["id"]))
            is not None
        )


def test_poll_now_runs_as_a_job(app, client, headers, tenant, mailbox, make_account, work):
    mailbox.deliver(message(attachments=[("a.txt", TEXT, "text/plain")]))
    account = make_account()

    response = client.post(f"/api/v1/mail-accounts/{account['id']}/poll", headers=headers)

    assert response.status_code == 202
    assert response.get_json()["data"]["accountId"] == account["id"]
    work()
    assert len(mail_documents(app, tenant.id)) == 1
    data = client.get(f"/api/v1/mail-accounts/{account['id']}", headers=headers).get_json()
    assert data["data"]["lastPolledAt"] is not None

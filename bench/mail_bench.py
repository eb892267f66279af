"""Mail polling benchmark: messages taken per second from a real Dovecot, each with one
attachment (text, 10 % PDFs), through `jobs.mailaccounts.poll_account` in this process (the
poll's own work: IMAP fetches, parsing, the upload path and one commit per message;
extraction jobs are queued, not run), batch after batch until the mailbox is done; with the
time a whole run of batches and the delivery took.

    DATABASE_URL=sqlite:////abs/path/instance/bench-mail.sqlite3 \\
    REDIS_URL=redis://127.0.0.1:6379/13 .venv/bin/python bench/mail_bench.py --messages 1000

Dovecot is started as the tests start it (tests/mailaccounts/dovecot.py)."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from email.message import EmailMessage
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

TENANT = "bench-mail"
PDF = (
    b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]"
    b"/Count 1>>endobj 3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\n"
    b"trailer<</Root 1 0 R>>\n%%EOF\n"
)


def _message(n: int) -> bytes:
    msg = EmailMessage()
    msg["From"] = "scanner@acme.example"
    msg["Subject"] = f"Scan {n}"
    msg["Message-ID"] = f"<bench-{n}-{time.time_ns()}@acme.example>"
    msg.set_content("Attached.")
    if n % 10 == 0:
        msg.add_attachment(PDF + f"%{n}\n".encode(), maintype="application", subtype="pdf",
                           filename=f"scan-{n}.pdf")  # fmt: skip
    else:
        text = f"Invoice {n}\nTotal {n * 3.5:.2f} EUR\n".encode() * 20
        msg.add_attachment(text, maintype="text", subtype="plain", filename=f"scan-{n}.txt")
    return bytes(msg)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=1000)
    parser.add_argument("--batch", type=int, default=100)
    args = parser.parse_args()

    from tests.mailaccounts.dovecot import PASSWORD, Dovecot

    server = Dovecot(Path(tempfile.mkdtemp(prefix="dms-mail-bench-")))
    server.start()
    try:
        user = server.add_user()
        started = time.monotonic()
        for n in range(args.messages):
            user.deliver(_message(n))
        delivered = time.monotonic() - started
        os.environ.setdefault("DMS_LOG_LEVEL", "WARNING")
        os.environ.setdefault("SECRET_KEY", "bench-secret-key-not-for-production")
        from flask_migrate import upgrade

        from app import create_app
        from extensions import db
        from jobs.mailaccounts import poll_account
        from models import Tenant
        from services.accounts import tenants
        from services.core.actors import Actor
        from services.mailaccounts import accounts
        from services.mailaccounts.wire import MailAccountCreate

        app = create_app({
            "DMS_LOG_JSON": False,
            "DMS_MAIL_ALLOW_PRIVATE": True,
            "DMS_MAIL_CA_BUNDLE": str(server.ca),
            "DMS_MAIL_BATCH_MESSAGES": args.batch,
        })  # fmt: skip
        actor = Actor.system("bench")
        with app.app_context():
            upgrade()
            if db.session.get(Tenant, TENANT) is None:
                tenants.create_tenant(TENANT, "enterprise", actor)
            body = MailAccountCreate(
                name="bench", imap_host="127.0.0.1", imap_port=server.imaps_port,
                username=user.name, password=PASSWORD,
            )  # fmt: skip
            account = accounts.create_account(TENANT, body, actor)
            db.session.commit()
            account_id = account.id
            started = time.monotonic()
            taken = documents = runs = 0
            while True:
                done = poll_account(TENANT, account_id)
                assert done is not None and "error" not in done, done
                taken, documents, runs = (
                    taken + done["messages"],
                    documents + done["documents"],
                    runs + 1,
                )
                if not done["more"]:
                    break
            elapsed = time.monotonic() - started
        print(
            f"{taken} messages, {documents} documents in {runs} runs of {args.batch}: "
            f"{elapsed:.1f} s, {taken / elapsed:.1f} messages/s "
            f"(delivering them into the Maildir: {delivered:.1f} s)"
        )
    finally:
        server.stop()


if __name__ == "__main__":
    main()

"""A poll killed with SIGKILL half way and run again loses nothing and doubles nothing, and a
mailbox of 100,000 messages is taken a bounded batch per run, in bounded memory. Real
processes (`flask mailaccounts poll`) and a real Dovecot."""

from __future__ import annotations

import os
import signal
import subprocess
import time
import tracemalloc
from collections import Counter

import pytest
from sqlalchemy import func, select

from tests.mailaccounts.conftest import mail_documents, message, records, server_view
from tests.server import BIN, ROOT

pytestmark = pytest.mark.slow


def _env(app, dovecot) -> dict[str, str]:
    config = app.config
    return {
        **os.environ,
        "DATABASE_URL": config["SQLALCHEMY_DATABASE_URI"],
        "REDIS_URL": config["REDIS_URL"],
        "DMS_REDIS_PREFIX": config["REDIS_KEY_PREFIX"],
        "SECRET_KEY": config["SECRET_KEY"],
        "DMS_STORAGE_DIR": config["DMS_STORAGE_DIR"],
        "DMS_MAIL_ALLOW_PRIVATE": "1",
        "DMS_MAIL_CA_BUNDLE": str(dovecot.ca),
        "DMS_MAIL_BATCH_MESSAGES": "1000",
        "DMS_ENV_FILE": os.devnull,
        "DMS_LOG_JSON": "0",
    }


def _taken(app, account_id: str) -> int:
    from extensions import db
    from models import MailMessage

    with app.app_context():
        count = db.session.scalar(select(func.count()).where(MailMessage.account_id == account_id))
        db.session.remove()
        return count


def test_a_poll_killed_half_way_and_run_again_loses_and_doubles_nothing(
    app, tenant, dovecot, mailbox, make_account, tmp_path
):
    total = 120
    for n in range(total):
        mailbox.deliver(
            message(
                message_id=f"<k{n}@x>",
                subject=f"S{n}",
                attachments=[(f"{n}.txt", f"Document {n}\n".encode(), "text/plain")],
            )
        )
    account = make_account()
    command = [str(BIN / "flask"), "--app", "app", "mailaccounts", "poll", account["id"],
               "--tenant", tenant.id]  # fmt: skip
    env = _env(app, dovecot)
    with (tmp_path / "poll.log").open("w") as log:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)
        deadline = time.monotonic() + 120
        while _taken(app, account["id"]) < 10 and process.poll() is None:
            assert time.monotonic() < deadline, (tmp_path / "poll.log").read_text()
            time.sleep(0.02)
        process.send_signal(signal.SIGKILL)
        process.wait()
    killed_at = _taken(app, account["id"])
    assert 10 <= killed_at < total, "the poll finished before the kill: make it longer"

    again = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr

    docs = mail_documents(app, tenant.id)
    assert len(docs) == total
    assert Counter(d.source["messageId"] for d in docs).most_common(1)[0][1] == 1
    assert {r.message_id for r in records(app, account["id"])} == {
        f"<k{n}@x>" for n in range(total)
    }
    assert all(r.pending_action is None for r in records(app, account["id"]))
    assert all(seen for _subject, seen in server_view(dovecot, mailbox))


def _fill(mailbox, count: int) -> None:
    """Write `count` small messages straight into the Maildir (cur/, unread): fast."""
    cur = mailbox.maildir / "cur"
    server = mailbox.server
    stamp = time.time_ns()
    for n in range(count):
        body = (
            f"From: bulk@x.example\r\nSubject: M{n}\r\nMessage-ID: <bulk{n}@x>\r\n\r\n"
            f"Message {n}\r\n"
        ).encode()
        path = cur / f"{stamp}.M{n}P1.dms,S={len(body)}:2,"
        path.write_bytes(body)
        os.chown(path, server.mail_uid, server.mail_gid)


def test_a_mailbox_of_100000_messages_is_taken_a_batch_per_run(
    app, mailbox, make_account, poll, monkeypatch
):
    _fill(mailbox, 100_000)
    monkeypatch.setitem(app.config, "DMS_MAIL_BATCH_MESSAGES", 200)
    account = make_account()

    tracemalloc.start()
    try:
        first = poll(account["id"])
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()

    assert first == {"messages": 200, "documents": 0, "more": True}
    assert peak < 64 * 1024 * 1024, f"{peak / 1e6:.1f} MB traced during the poll"
    taken = records(app, account["id"])
    assert len(taken) == 200
    assert all(r.outcome == "skipped" for r in taken)  # no attachments: the default rule
    second = poll(account["id"])
    assert second["messages"] == 200
    later = records(app, account["id"])
    assert len(later) == 400
    assert min(r.uid for r in later[200:]) > max(r.uid for r in taken)

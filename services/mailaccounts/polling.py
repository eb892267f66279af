"""Polling a mail account: which accounts are due, the messages a run takes (UIDs above the
last one looked at, a bounded batch per run, one message in memory at a time), each message's
import as one unit of work (its documents and its record, unique by Message-ID per account,
commit together), the after-import action on the server, and a run's success or failure
(backoff, the admins told).

The units of work are the caller's (jobs/mailaccounts.py wraps each function below that
writes in `transactional`), so that a run commits a few messages at a time: a crash between
a message's commit and its action on the server leaves the action recorded as pending, done
by the next run, and nothing is imported twice."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from flask import current_app
from sqlalchemy import or_, select

import clock
from extensions import db
from models import MailAccount, MailMessage
from services.core import queue, transaction
from services.mailaccounts import accounts, connection
from services.mailaccounts.connection import Mailbox, MailError, Settings
from services.mailaccounts.wire import MailRule
from services.notifications.notifications import Message, notify_admins

NOTIFY_AFTER_FAILURES = 3
MAX_BACKOFF = timedelta(hours=24)
MAIL_ACCOUNT_FAILING = "mail_account.failing"


def book_due(now: datetime | None = None) -> list[tuple[str, str]]:
    """Every enabled account whose next poll is due, its next poll moved on (so a second
    booking does not take it again); a job each, queued once this commits."""
    now = now or clock.now()
    due = db.session.scalars(
        select(MailAccount)
        .where(
            MailAccount.enabled.is_(True),
            or_(MailAccount.next_poll_at.is_(None), MailAccount.next_poll_at <= now),
        )
        .order_by(MailAccount.next_poll_at)
        .limit(1000)
        .with_for_update(skip_locked=True)
    ).all()
    booked = []
    for account in due:
        account.next_poll_at = now + timedelta(minutes=account.poll_minutes)
        booked.append((account.tenant_id, account.id))
    db.session.flush()

    def enqueue() -> None:
        for tenant_id, account_id in booked:
            queue.enqueue(accounts.POLL_JOB, tenant_id, account_id, job_timeout=1800)

    transaction.after_commit(enqueue)
    return booked


# --- a run -----------------------------------------------------------------------------------


@dataclass
class Plan:
    """What a run needs, read once inside its first unit of work."""

    tenant_id: str
    account_id: str
    settings: Settings
    rules: list[MailRule]
    uid_validity: int | None
    last_uid: int
    batch: int
    max_message_bytes: int
    pending: list[tuple[str, int, str, str | None]] = field(default_factory=list)


def begin(tenant_id: str, account_id: str) -> Plan | None:
    """The run's plan, or None when the account is gone; a MailError when its password
    cannot be read (recorded by `failed` like any other failure)."""
    account = MailAccount.find_for_tenant(account_id, tenant_id)
    if account is None:
        return None
    plan = Plan(
        tenant_id,
        account_id,
        accounts.settings_of(account),
        [MailRule.model_validate(rule) for rule in account.rules] or [MailRule()],
        account.uid_validity,
        account.last_uid,
        max(1, current_app.config["DMS_MAIL_BATCH_MESSAGES"]),
        current_app.config["DMS_MAIL_MAX_MESSAGE_BYTES"],
    )
    plan.pending = [
        (row.id, row.uid, row.pending_action, row.move_to)
        for row in db.session.scalars(
            select(MailMessage).where(
                MailMessage.tenant_id == tenant_id,
                MailMessage.account_id == account_id,
                MailMessage.pending_action.is_not(None),
            )
        )
        if row.pending_action is not None
    ]
    return plan


def folder_state(plan: Plan, mailbox: Mailbox) -> None:
    """Read the folder's UIDVALIDITY: a new one (the folder was recreated) starts from UID 1
    (messages already taken stay taken, by their Message-ID) and drops pending actions."""
    status = mailbox.folder.status(plan.settings.folder, ["UIDVALIDITY"])
    validity = int(status.get("UIDVALIDITY", 0))
    if plan.uid_validity is not None and validity != plan.uid_validity:
        plan.last_uid, plan.pending = 0, []
    plan.uid_validity = validity


def new_uids(plan: Plan, mailbox: Mailbox) -> list[int]:
    """The UIDs above the last one looked at, ascending (numbers only: a mailbox of 100,000
    messages is some 600 KB here, never its messages)."""
    typ, data = mailbox.client.uid("SEARCH", None, f"UID {plan.last_uid + 1}:*")
    if typ != "OK":
        raise MailError("MAIL_SEARCH_FAILED", f"The server refused to search: {data!r}"[:300])
    found = (int(n) for chunk in data if chunk for n in chunk.split())
    return sorted(uid for uid in found if uid > plan.last_uid)


_FETCH_ITEM = re.compile(rb"UID (\d+)|RFC822\.SIZE (\d+)")


def headers_of(mailbox: Mailbox, uids: list[int]) -> dict[int, tuple[int, bytes]]:
    """Each UID's size and header block (Message-ID, From, Subject), in one command."""
    typ, data = mailbox.client.uid(
        "FETCH",
        ",".join(str(u) for u in uids),
        "(UID RFC822.SIZE BODY.PEEK[HEADER.FIELDS (MESSAGE-ID FROM SUBJECT)])",
    )
    if typ != "OK":
        raise MailError("MAIL_FETCH_FAILED", f"The server refused to fetch: {data!r}"[:300])
    found: dict[int, tuple[int, bytes]] = {}
    for item in data:
        if not isinstance(item, tuple):
            continue
        uid = size = None
        for match in _FETCH_ITEM.finditer(item[0]):
            uid = int(match.group(1)) if match.group(1) else uid
            size = int(match.group(2)) if match.group(2) else size
        if uid is not None:
            found[uid] = (size or 0, item[1])
    return found


def fetch_message(mailbox: Mailbox, uid: int) -> bytes | None:
    """One message's bytes (without setting \\Seen), or None when it is gone."""
    typ, data = mailbox.client.uid("FETCH", str(uid), "(BODY.PEEK[])")
    if typ != "OK":
        raise MailError("MAIL_FETCH_FAILED", f"The server refused to fetch: {data!r}"[:300])
    for item in data:
        if isinstance(item, tuple):
            return item[1]
    return None


def apply_action(
    mailbox: Mailbox, uid: int, action: str, move_to: str | None, *, replay: bool = False
) -> None:
    """Do a message's after-import action on the server. A `replay` (an action left pending
    by an earlier run, which may have done it before it stopped) tolerates a refusal: the
    message may be gone or moved already."""
    try:
        if action == "markRead":
            mailbox.flag(str(uid), connection.imap_tools.MailMessageFlags.SEEN, True)
        elif action == "move" and move_to:
            mailbox.move(str(uid), move_to)
        elif action == "delete":
            mailbox.delete(str(uid))
    except connection.imap_errors.UnexpectedCommandStatusError:
        if not replay:
            raise


def actions_done(tenant_id: str, record_ids: list[str]) -> None:
    """The after-import actions of these records are done on the server."""
    for record_id in record_ids:
        record = MailMessage.find_for_tenant(record_id, tenant_id)
        if record is not None:
            record.pending_action = None
    db.session.flush()


def succeeded(plan: Plan, more: bool) -> None:
    """The run went through: the error cleared, the next poll booked (at once when messages
    are left for another batch, queued once this commits)."""
    account = MailAccount.find_for_tenant(plan.account_id, plan.tenant_id)
    if account is None:
        return
    now = clock.now()
    account.uid_validity = plan.uid_validity
    account.last_polled_at = now
    account.last_error = account.last_error_code = None
    account.failures = 0
    account.next_poll_at = now + timedelta(minutes=account.poll_minutes)
    db.session.flush()
    if more:
        tenant_id, account_id = plan.tenant_id, plan.account_id
        transaction.after_commit(
            lambda: queue.enqueue(accounts.POLL_JOB, tenant_id, account_id, job_timeout=1800)
        )


def backoff(poll_minutes: int, failures: int) -> timedelta:
    """The wait before the next poll after `failures` failed ones in a row: the interval
    doubled each time, at most a day."""
    return min(timedelta(minutes=poll_minutes) * 2 ** min(failures, 16), MAX_BACKOFF)


def failed(tenant_id: str, account_id: str, error: MailError) -> None:
    """The run failed: the error shown on the account, the next poll backed off; from the
    third failure in a row the tenant's admins are told (once a day per account)."""
    account = MailAccount.find_for_tenant(account_id, tenant_id)
    if account is None:
        return
    now = clock.now()
    account.failures += 1
    account.last_polled_at = now
    account.last_error = error.message[:500]
    account.last_error_code = error.code
    account.next_poll_at = now + backoff(account.poll_minutes, account.failures)
    db.session.flush()
    if account.failures >= NOTIFY_AFTER_FAILURES:
        message = Message(
            MAIL_ACCOUNT_FAILING,
            "A mail account cannot be polled",
            f"{account.name} ({account.username} at {account.imap_host}) failed "
            f"{account.failures} times in a row: {account.last_error} The next attempt is at "
            f"{clock.rfc3339(account.next_poll_at)}.",
            {"mailAccountId": account.id, "code": error.code},
        )
        notify_admins(tenant_id, message, f"mail-failing:{account.id}:{now.date().isoformat()}")

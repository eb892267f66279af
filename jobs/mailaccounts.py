"""The mail jobs: every minute the due accounts are booked (a poll job each), and a poll takes
one bounded batch of new messages from one account, committing a few messages at a time
(services/mailaccounts/polling.py says why), then books its next run."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from sqlalchemy.exc import IntegrityError

from services.core import transaction
from services.core.queue import Periodic
from services.mailaccounts import connection, importing, polling
from services.mailaccounts.connection import Mailbox, MailError

log = logging.getLogger(__name__)

# Messages imported in one unit of work, fewer when their bytes pass GROUP_BYTES (at most
# that much, or one message, is held in memory).
GROUP_MESSAGES = 10
GROUP_BYTES = 8 * 1024 * 1024

POLL_DUE = Periodic("mail-poll-due", "jobs.mailaccounts.poll_due", every=timedelta(minutes=1))
PERIODIC = [POLL_DUE]


def poll_due() -> int:
    """RQ job: queue a poll of every account that is due; book the next run."""
    booked = transaction.transactional(polling.book_due)()
    POLL_DUE.book()
    return len(booked)


def poll_account(tenant_id: str, account_id: str) -> dict[str, Any] | None:
    """RQ job (and `flask mailaccounts poll`): one run over one account. Returns what it did,
    or None when the account is gone; a failure is recorded on the account, not raised."""
    try:
        plan = transaction.transactional(polling.begin)(tenant_id, account_id)
    except MailError as error:
        transaction.transactional(polling.failed)(tenant_id, account_id, error)
        return {"error": error.code}
    if plan is None:
        return None
    done = {"messages": 0, "documents": 0, "more": False}
    try:
        with connection.open_mailbox(plan.settings) as mailbox:
            polling.folder_state(plan, mailbox)
            for _record_id, uid, action, move_to in plan.pending:
                polling.apply_action(mailbox, uid, action, move_to, replay=True)
            if plan.pending:
                ids = [record_id for record_id, *_rest in plan.pending]
                transaction.transactional(polling.actions_done)(tenant_id, ids)
            uids = polling.new_uids(plan, mailbox)
            batch, done["more"] = uids[: plan.batch], len(uids) > plan.batch
            heads = polling.headers_of(mailbox, batch) if batch else {}
            group: list[tuple[int, int, bytes, bytes | None]] = []
            held = 0
            for uid in batch:
                size, head = heads.get(uid, (0, b""))
                raw = None
                if uid in heads and size <= plan.max_message_bytes:
                    raw = polling.fetch_message(mailbox, uid)
                group.append((uid, size, head, raw))
                held += len(raw or b"")
                if len(group) >= GROUP_MESSAGES or held >= GROUP_BYTES:
                    _take(plan, mailbox, group, done)
                    group, held = [], 0
            _take(plan, mailbox, group, done)
    except MailError as error:
        log.warning("mail poll failed", extra={"account": account_id, "code": error.code})
        transaction.transactional(polling.failed)(tenant_id, account_id, error)
        return {**done, "error": error.code}
    transaction.transactional(polling.succeeded)(plan, done["more"])
    return done


def _take(plan: polling.Plan, mailbox: Mailbox, group: list, done: dict[str, Any]) -> None:
    """Import a group of fetched messages in one unit of work (one at a time when a concurrent
    run took one of them first), then do their after-import actions and record them done."""
    if not group:
        return
    try:
        taken = transaction.transactional(importing.import_messages)(plan, group)
    except IntegrityError:  # a concurrent run took one first: its record stands
        taken = []
        for message in group:
            try:
                taken.append(transaction.transactional(importing.import_message)(plan, *message))
            except IntegrityError:
                continue
    for item in taken:
        done["messages"] += 1
        done["documents"] += item.documents
        if item.action:
            polling.apply_action(mailbox, item.uid, item.action, item.move_to)
    acted = [item.record_id for item in taken if item.action]
    if acted:
        transaction.transactional(polling.actions_done)(plan.tenant_id, acted)

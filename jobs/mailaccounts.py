"""The mail jobs: every minute the due accounts are booked (a poll job each), and a poll takes
one bounded batch of new messages from one account, committing message by message
(services/mailaccounts/polling.py says why), then books its next run."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from sqlalchemy.exc import IntegrityError

from services.core import transaction
from services.core.queue import Periodic
from services.mailaccounts import connection, polling
from services.mailaccounts.connection import MailError

log = logging.getLogger(__name__)

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
            for record_id, uid, action, move_to in plan.pending:
                polling.apply_action(mailbox, uid, action, move_to)
                transaction.transactional(polling.action_done)(tenant_id, record_id)
            uids = polling.new_uids(plan, mailbox)
            batch, done["more"] = uids[: plan.batch], len(uids) > plan.batch
            heads = polling.headers_of(mailbox, batch) if batch else {}
            for uid in batch:
                size, head = heads.get(uid, (0, b""))
                raw = None
                if uid in heads and size <= plan.max_message_bytes:
                    raw = polling.fetch_message(mailbox, uid)
                try:
                    taken = transaction.transactional(polling.import_message)(
                        plan, uid, size, head, raw
                    )
                except IntegrityError:  # a concurrent run took it first: its record stands
                    continue
                done["messages"] += 1
                done["documents"] += taken.documents
                if taken.action:
                    polling.apply_action(mailbox, uid, taken.action, taken.move_to)
                    transaction.transactional(polling.action_done)(tenant_id, taken.record_id)
    except MailError as error:
        log.warning("mail poll failed", extra={"account": account_id, "code": error.code})
        transaction.transactional(polling.failed)(tenant_id, account_id, error)
        return {**done, "error": error.code}
    transaction.transactional(polling.succeeded)(plan, done["more"])
    return done

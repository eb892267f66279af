"""Deliveries attempted a batch at a time (the drain job, jobs/webhooks.py): one conditional
UPDATE claims up to BATCH_SIZE due deliveries, a few threads send them over kept-alive
connections, and one unit of work records their outcomes. The claim is the one of a single
delivery (deliveries.claimable) for many rows: a delivery in one batch is claimable by no
other claim, batch or single, until its outcome is recorded or its lease lapses."""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from types import TracebackType

from flask import current_app
from sqlalchemy import select, update
from sqlalchemy.orm import aliased, joinedload, lazyload

import clock
from extensions import db
from models import WebhookDelivery
from services.core.outbound import Outcome, Pools
from services.webhooks import deliveries
from services.webhooks.deliveries import AttemptPlan

log = logging.getLogger(__name__)

BATCH_SIZE = 50
SEND_THREADS = 16
# A send not started this long after the claim is not made (its claim is released): every
# send of a batch then ends (DNS, 10 s of HTTP) well inside the claim's lease (2 minutes).
SEND_WINDOW = timedelta(seconds=60)


def claim_due(job_id: str | None, limit: int | None = None) -> tuple[list[AttemptPlan], int]:
    """Claim up to `limit` due deliveries, the longest due first, for `job_id`; their plans
    and how many were claimed (a claimed delivery whose endpoint was disabled meanwhile is
    closed, not planned). The caller commits the claims before sending."""
    now = clock.now()
    # The rows are chosen once, in a materialized CTE: as `IN (subquery)`, PostgreSQL may run
    # the subquery again per candidate row and claim past the LIMIT (seen: 5 with a limit of
    # 2). SKIP LOCKED (PostgreSQL; SQLite writes one at a time) lets racing workers take other
    # rows instead of waiting on the same ones; the UPDATE checks the conditions again on
    # the row it locks, so a row claimed meanwhile is never taken twice. An alias, or the
    # inner table would be correlated with the UPDATE's.
    due = aliased(WebhookDelivery)
    chosen = (
        select(due.id)
        .where(*deliveries.claimable(now, due))
        .order_by(due.next_attempt_at)
        .limit(limit or BATCH_SIZE)
        .with_for_update(skip_locked=True)
        .cte("chosen")
        .prefix_with("MATERIALIZED")
    )
    ids = db.session.scalars(
        update(WebhookDelivery)
        .where(WebhookDelivery.id == chosen.c.id, *deliveries.claimable(now))
        .values(claimed_until=now + deliveries.CLAIM_LEASE, job_id=job_id)
        .returning(WebhookDelivery.id)
        .execution_options(synchronize_session=False)
    ).all()
    if not ids:
        return [], 0
    rows = (
        db.session.scalars(
            select(WebhookDelivery)
            .where(WebhookDelivery.id.in_(ids))
            .options(joinedload(WebhookDelivery.endpoint))
            .order_by(WebhookDelivery.next_attempt_at)
            .execution_options(populate_existing=True)
        )
        .unique()
        .all()
    )
    secrets_of: dict[str, list[str]] = {}
    plans = [deliveries.plan_attempt(delivery, now, secrets_of) for delivery in rows]
    return [plan for plan in plans if plan is not None], len(ids)


class Sender:
    """Sends the plans of a batch concurrently: SEND_THREADS threads, keep-alive connections
    per checked address (outbound.Pools), the SSRF guard on every attempt. Threads and
    connections last while the sender is open (`with Sender() as sender:`)."""

    def __init__(self, threads: int | None = None) -> None:
        threads = threads or SEND_THREADS
        self.allow_private = bool(current_app.config["DMS_WEBHOOK_ALLOW_PRIVATE"])
        self.pools = Pools(per_address=threads)
        self.executor = ThreadPoolExecutor(threads, thread_name_prefix="webhook-send")

    def __enter__(self) -> Sender:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.executor.shutdown(wait=True, cancel_futures=True)
        self.pools.close()

    def send_all(self, plans: Sequence[AttemptPlan]) -> list[Outcome | None]:
        """Each plan's outcome, in order; None for a send not started within SEND_WINDOW."""
        last_start = time.monotonic() + SEND_WINDOW.total_seconds()

        def send(plan: AttemptPlan) -> Outcome | None:
            if time.monotonic() > last_start:
                return None
            try:
                return deliveries.send(plan, self.allow_private, self.pools)
            except Exception as exc:  # a fault of ours: recorded as the attempt's failure
                log.exception("webhook send failed", extra={"delivery_id": plan.delivery_id})
                return Outcome(None, 0, error=f"internal error: {type(exc).__name__}")

        return list(self.executor.map(send, plans))


def record(results: Sequence[tuple[AttemptPlan, Outcome | None]]) -> int:
    """Record the outcomes of a batch (deliveries.apply_outcome) in the caller's unit of
    work, and release the claims of the deliveries not sent; how many attempts it recorded."""
    sent = {plan.delivery_id: (plan, outcome) for plan, outcome in results if outcome}
    release([plan.delivery_id for plan, outcome in results if outcome is None])
    if not sent:
        return 0
    rows = (
        db.session.scalars(
            select(WebhookDelivery)
            .where(WebhookDelivery.id.in_(sent))
            # The event only matters for a retry's schedule: loaded then, not for every row.
            .options(joinedload(WebhookDelivery.endpoint), lazyload(WebhookDelivery.event))
            .execution_options(populate_existing=True)
        )
        .unique()
        .all()
    )
    now = clock.now()
    recorded = 0
    for delivery in rows:  # one deleted meanwhile is simply not there
        plan, outcome = sent[delivery.id]
        assert outcome is not None
        deliveries.apply_outcome(delivery, plan, outcome, now)
        recorded += 1
    db.session.flush()
    return recorded


def release(delivery_ids: Sequence[str]) -> None:
    """Give up the claims of deliveries that were not sent: they are due again at once."""
    if delivery_ids:
        db.session.execute(
            update(WebhookDelivery)
            .where(WebhookDelivery.id.in_(delivery_ids))
            .values(claimed_until=None)
            .execution_options(synchronize_session=False)
        )

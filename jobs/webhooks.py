"""The webhook jobs: the drain (woken after a commit by services/webhooks/deliveries.py), which
attempts due deliveries a batch at a time; one delivery's attempt (`flask webhooks reconcile
--inline`); and the reconciler, which books its own next run every minute (like the recovery
sweep in jobs/housekeeping.py; `flask worker` books the first)."""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta

from rq import get_current_job

from services.core import queue, transaction
from services.core.outbound import Outcome
from services.webhooks import batches, deliveries, reconciler, wakeup
from services.webhooks.deliveries import AttemptPlan

log = logging.getLogger(__name__)

RECONCILE_JOB = "jobs.webhooks.reconcile"
RECONCILE_EVERY = timedelta(minutes=1)
# A drain hands over to a fresh job at the back of the queue after this, so that a stream of
# deliveries never keeps the worker from its other jobs.
DRAIN_SECONDS = 20.0


def drain() -> int:
    """RQ job: claim the due deliveries a batch at a time (each claim committed before its
    sends), send each batch concurrently, record its outcomes; until nothing is due, or for
    DRAIN_SECONDS. Returns how many attempts it recorded."""
    wakeup.woken()  # from here on, a commit wakes another drain
    job = get_current_job()
    job_id = job.id if job is not None else None
    stop_at = time.monotonic() + DRAIN_SECONDS
    recorded = 0
    with batches.Sender() as sender:
        while True:
            plans, claimed = transaction.transactional(batches.claim_due)(job_id)
            if not claimed:
                return recorded
            recorded += _record(list(zip(plans, sender.send_all(plans), strict=True)))
            if time.monotonic() > stop_at:
                wakeup.wake()
                return recorded


def _record(results: list[tuple[AttemptPlan, Outcome | None]]) -> int:
    """One unit of work for the batch; if it fails, one per delivery, so that one bad row
    (or a listener's fault) costs only its own outcome, whose claim then lapses and whose
    delivery is sent again."""
    try:
        return transaction.transactional(batches.record)(results)
    except Exception:
        log.exception("webhook batch not recorded; recording one at a time")
    recorded = 0
    for result in results:
        try:
            recorded += transaction.transactional(batches.record)([result])
        except Exception:
            log.exception(
                "webhook outcome not recorded", extra={"delivery_id": result[0].delivery_id}
            )
    return recorded


def deliver(delivery_id: str) -> str | None:
    """Attempt one delivery: claim it (committed at once, so no other attempt starts), send
    it outside any transaction, record the outcome. None when it was not ours to attempt."""
    job = get_current_job()
    plan = transaction.transactional(deliveries.claim)(delivery_id, job.id if job else None)
    if plan is None:
        return None
    outcome = deliveries.send(plan)
    return transaction.transactional(deliveries.record_outcome)(plan, outcome)


def reconcile() -> int:
    """RQ job, every RECONCILE_EVERY: wake a drain for the due deliveries no job carries."""
    count = transaction.transactional(reconciler.reconcile)()
    schedule_reconcile()
    return count


def schedule_reconcile(now: datetime | None = None, unless_booked: bool = False) -> str | None:
    """Book the next run (services/core/queue.book_periodic)."""
    return queue.book_periodic(
        "webhooks-reconcile", RECONCILE_JOB, RECONCILE_EVERY, now=now, unless_booked=unless_booked
    )

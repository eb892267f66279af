"""The webhook jobs: the drain (woken after a commit by services/webhooks/deliveries.py), which
attempts due deliveries a batch at a time; one delivery's attempt (`flask webhooks reconcile
--inline`); and the reconciler, a periodic job that books its own next run every minute
(`flask worker` books the first, jobs/worker.ensure_scheduled)."""

from __future__ import annotations

import logging
import time
from datetime import timedelta

from rq import get_current_job

from services.core import transaction
from services.core.outbound import Outcome
from services.core.queue import Periodic
from services.webhooks import batches, deliveries, reconciler, wakeup
from services.webhooks.deliveries import AttemptPlan

log = logging.getLogger(__name__)

RECONCILE = Periodic("webhooks-reconcile", "jobs.webhooks.reconcile", every=timedelta(minutes=1))
PERIODIC = [RECONCILE]
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
    """RQ job, every minute: wake a drain for the due deliveries no job carries; book the next
    run."""
    count = transaction.transactional(reconciler.reconcile)()
    RECONCILE.book()
    return count

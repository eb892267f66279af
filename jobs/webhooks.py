"""The webhook jobs: one delivery attempt (enqueued by services/webhooks/deliveries.py), and
the reconciler, which books its own next run every minute (like the recovery sweep in
jobs/housekeeping.py; `flask worker` books the first)."""

from __future__ import annotations

from datetime import datetime, timedelta

import clock
from services.core import queue, transaction
from services.webhooks import deliveries, reconciler

RECONCILE_JOB = "jobs.webhooks.reconcile"
RECONCILE_EVERY = timedelta(minutes=1)


def deliver(delivery_id: str) -> str | None:
    """Attempt one delivery: claim it (committed at once, so no other attempt starts), send
    it outside any transaction, record the outcome. None when it was not ours to attempt."""
    plan = transaction.transactional(deliveries.claim)(delivery_id)
    if plan is None:
        return None
    outcome = deliveries.send(plan)
    return transaction.transactional(deliveries.record_outcome)(plan, outcome)


def reconcile() -> int:
    """RQ job, every RECONCILE_EVERY: enqueue the due deliveries whose job is missing."""
    count = transaction.transactional(reconciler.reconcile)()
    schedule_reconcile()
    return count


def schedule_reconcile(now: datetime | None = None) -> str:
    """Book the next run; ids name the minute, so several workers book one job."""
    when = (now or clock.now()) + RECONCILE_EVERY
    slot = int(when.timestamp() // RECONCILE_EVERY.total_seconds())
    job_id = f"webhooks-reconcile-{slot}"
    queue.queue().enqueue_at(when, RECONCILE_JOB, job_id=job_id, job_timeout=300)
    return job_id

"""The push jobs: one delivery of a notification to one device (enqueued by
services/push/deliveries.py), and the reconciler, a periodic job that books itself while
deliveries are open (services/push/reconciler.py); the worker books it too, at start and at
each maintenance (jobs/worker.ensure_scheduled)."""

from __future__ import annotations

from services.core import transaction
from services.push import deliveries, reconciler

PERIODIC = [reconciler.RECONCILE]


def deliver(delivery_id: str) -> str | None:
    """Claim the delivery (committed at once, so no other attempt starts), push it outside any
    transaction, record the outcome. None when it was not ours to attempt."""
    plan = transaction.transactional(deliveries.claim)(delivery_id)
    if plan is None:
        return None
    answer = deliveries.send(plan)
    return transaction.transactional(deliveries.record_outcome)(plan, answer)


def reconcile() -> int:
    """Enqueue the due deliveries whose job is missing; books its next run while any is open."""
    return transaction.transactional(deliveries.reconcile)()

"""The workflow jobs: the escalation sweep, which books its own next run every few minutes
(`flask worker` books the first, jobs/housekeeping.ensure_scheduled), and the recomputation of
a tenant's approvers after a person's access changed."""

from __future__ import annotations

from datetime import datetime, timedelta

import clock
from services.core import queue, transaction
from services.workflows import escalation, refresh

SWEEP_JOB = "jobs.workflows.sweep"
SWEEP_EVERY = timedelta(minutes=5)


def sweep() -> dict[str, int]:
    """RQ job: escalate overdue steps, report unattended instances (one unit of work per
    instance, so one failure does not undo the others); book the next run."""
    overdue = escalation.overdue_ids(clock.now())
    escalated = [i for i in overdue if transaction.transactional(escalation.escalate_overdue)(i)]
    stuck = escalation.unattended_ids()
    reported = [i for i in stuck if transaction.transactional(escalation.report_unattended)(i)]
    schedule_sweep()
    return {"escalated": len(escalated), "unattended": len(reported)}


def schedule_sweep(now: datetime | None = None, unless_booked: bool = False) -> str | None:
    """Book the next run (services/core/queue.book_periodic)."""
    return queue.book_periodic(
        "workflows-sweep",
        SWEEP_JOB,
        SWEEP_EVERY,
        now=now,
        job_timeout=600,
        unless_booked=unless_booked,
    )


def refresh_tenant(tenant_id: str) -> int:
    """Recompute who can act on each open instance of the tenant, one unit of work each; how
    many were looked at."""
    ids = refresh.open_instance_ids(tenant_id)
    for instance_id in ids:
        transaction.transactional(refresh.refresh_instance)(tenant_id, instance_id)
    return len(ids)

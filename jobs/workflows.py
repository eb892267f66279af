"""The workflow jobs: the escalation sweep, which books its own next run every few minutes
(`flask worker` books the first, jobs/housekeeping.ensure_scheduled), and the recomputation of
a tenant's approvers after a person's access changed."""

from __future__ import annotations

from datetime import datetime, timedelta

from services.core import queue
from services.workflows import escalation, refresh

SWEEP_JOB = "jobs.workflows.sweep"
SWEEP_EVERY = timedelta(minutes=5)


def sweep() -> dict[str, int]:
    """RQ job: escalate overdue steps, report unattended instances; book the next run."""
    report = escalation.sweep()
    schedule_sweep()
    return report


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
    return refresh.refresh_tenant(tenant_id)

"""The workflow jobs: the escalation sweep, which books its own next run every few minutes
(`flask worker` books the first, jobs/housekeeping.ensure_scheduled), and the recomputation of
a tenant's approvers after a person's access changed."""

from __future__ import annotations

from datetime import datetime, timedelta

import clock
from services.core import queue
from services.workflows import escalation, refresh

SWEEP_JOB = "jobs.workflows.sweep"
SWEEP_EVERY = timedelta(minutes=5)


def sweep() -> dict[str, int]:
    """RQ job: escalate overdue steps, report unattended instances; book the next run."""
    report = escalation.sweep()
    schedule_sweep()
    return report


def schedule_sweep(now: datetime | None = None) -> str:
    """Book the next run; ids name the slot, so several workers book one job."""
    when = (now or clock.now()) + SWEEP_EVERY
    slot = int(when.timestamp() // SWEEP_EVERY.total_seconds())
    job_id = f"workflows-sweep-{slot}"
    queue.queue().enqueue_at(when, SWEEP_JOB, job_id=job_id, job_timeout=600)
    return job_id


def refresh_tenant(tenant_id: str) -> int:
    return refresh.refresh_tenant(tenant_id)

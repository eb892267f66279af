"""The workflow jobs: the escalation sweep, a periodic job that books its own next run every
five minutes (`flask worker` books the first, jobs/worker.ensure_scheduled), and the
recomputation of a tenant's approvers after a person's access changed."""

from __future__ import annotations

from datetime import timedelta

from services.core.queue import Periodic
from services.workflows import escalation, refresh

SWEEP = Periodic("workflows-sweep", "jobs.workflows.sweep", every=timedelta(minutes=5), timeout=600)
PERIODIC = [SWEEP]


def sweep() -> dict[str, int]:
    """RQ job: escalate overdue steps, report unattended instances; book the next run."""
    report = escalation.sweep()
    SWEEP.book()
    return report


def refresh_tenant(tenant_id: str) -> int:
    return refresh.refresh_tenant(tenant_id)

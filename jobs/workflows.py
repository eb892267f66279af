"""The workflow jobs: the escalation sweep, a periodic job that books its own next run every
five minutes (`flask worker` books the first, jobs/worker.ensure_scheduled), and the
recomputation of a tenant's approvers after a person's access changed."""

from __future__ import annotations

from datetime import timedelta

import clock
from services.core import transaction
from services.core.queue import Periodic
from services.workflows import escalation, refresh

SWEEP = Periodic("workflows-sweep", "jobs.workflows.sweep", every=timedelta(minutes=5), timeout=600)
PERIODIC = [SWEEP]


def sweep() -> dict[str, int]:
    """RQ job: escalate overdue steps, report unattended instances (one unit of work per
    instance, so one failure does not undo the others); book the next run."""
    overdue = escalation.overdue_ids(clock.now())
    escalated = [i for i in overdue if transaction.transactional(escalation.escalate_overdue)(i)]
    stuck = escalation.unattended_ids()
    reported = [i for i in stuck if transaction.transactional(escalation.report_unattended)(i)]
    SWEEP.book()
    return {"escalated": len(escalated), "unattended": len(reported)}


def refresh_tenant(tenant_id: str) -> int:
    """Recompute who can act on each open instance of the tenant, one unit of work each; how
    many were looked at."""
    ids = refresh.open_instance_ids(tenant_id)
    for instance_id in ids:
        transaction.transactional(refresh.refresh_instance)(tenant_id, instance_id)
    return len(ids)

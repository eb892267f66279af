"""The recovery sweep of apply jobs (services/matching/apply.py): one still queued or running
whose worker lost it (a crash, a Redis flush, RQ's time limit) is handed to a worker again,
and continues after its last committed batch. The grace period is the bulk jobs' own."""

from __future__ import annotations

from sqlalchemy import select

import clock
from extensions import db
from models.bulk import Job, JobStatus
from services.bulk.recovery import GRACE
from services.core import queue
from services.matching import apply


def revive_lost(now=None) -> list[str]:
    """Enqueue again every unfinished apply job, of any tenant, that no worker holds."""
    now = now or clock.now()
    rows = db.session.execute(
        select(Job.tenant_id, Job.id).where(
            Job.type == apply.JOB_TYPE,
            Job.status.in_([JobStatus.QUEUED.value, JobStatus.RUNNING.value]),
            Job.created_at < now - GRACE,
        )
    ).all()
    revived = []
    for tenant_id, job_id in rows:
        if not queue.job_is_alive(apply.rq_job_id(job_id)):
            apply.enqueue(tenant_id, job_id)
            revived.append(job_id)
    return revived

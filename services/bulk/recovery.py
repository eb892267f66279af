"""The recovery sweep of bulk jobs: a job still queued or running whose worker lost it (a
crash, a Redis flush, RQ's time limit) is handed to a worker again, and continues after its
last committed batch (services/bulk/bulk.py)."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

import clock
from extensions import db
from models.bulk import Job, JobStatus
from services.bulk import bulk
from services.core import queue

# A job younger than this may still be on its way to the queue (enqueued after its commit).
GRACE = timedelta(minutes=1)


def revive_lost(now=None) -> list[str]:
    """Enqueue again every unfinished bulk edit, of any tenant, that no worker holds; their
    ids (jobs of other types have their own sweeps)."""
    now = now or clock.now()
    rows = db.session.execute(
        select(Job.tenant_id, Job.id).where(
            Job.type == bulk.JOB_TYPE,
            Job.status.in_([JobStatus.QUEUED.value, JobStatus.RUNNING.value]),
            Job.created_at < now - GRACE,
        )
    ).all()
    revived = []
    for tenant_id, job_id in rows:
        if not queue.job_is_alive(bulk.rq_job_id(job_id)):
            bulk.enqueue(tenant_id, job_id)
            revived.append(job_id)
    return revived

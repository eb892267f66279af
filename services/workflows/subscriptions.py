"""How workflows follow people: when a user's role or active state changes (or a user joins),
the tenant's open instances get their current approvers recomputed by a job after the commit
(jobs/workflows.refresh_tenant), so "waiting for me" lists and notifications follow. Acting is
checked live, so the job's delay never lets a demoted person approve."""

from __future__ import annotations

import logging

from redis.exceptions import RedisError

from models import User
from services.core import queue, signals, transaction

log = logging.getLogger(__name__)

REFRESH_JOB = "jobs.workflows.refresh_tenant"


def connect() -> None:
    signals.user_access_changed.connect(_user_access_changed)


def _user_access_changed(user: User, **_) -> None:
    tenant_id = user.tenant_id

    def enqueue() -> None:
        try:
            job_id = queue.named_job_id("workflows-refresh", tenant_id)
            queue.enqueue(REFRESH_JOB, tenant_id, job_id=job_id)
        except RedisError as exc:  # the sweep recomputes unattended instances anyway
            log.warning("could not enqueue the approvers refresh", extra={"error": str(exc)})

    transaction.after_commit(enqueue)

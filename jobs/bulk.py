"""The bulk edit job (enqueued by services/bulk/bulk.py when a request commits): one
transaction per batch of documents, so that progress shows while it runs and a re-run after a
crash continues after the last batch; and the sweep that hands lost jobs to a worker again."""

from __future__ import annotations

from datetime import timedelta

from services.bulk import bulk, recovery
from services.core import transaction
from services.core.queue import Periodic

RECOVER = Periodic("bulk-recover", "jobs.bulk.recover", every=timedelta(minutes=5))
PERIODIC = [RECOVER]


def run_job(tenant_id: str, job_id: str) -> str | None:
    """RQ job: apply the bulk edit a batch at a time; the job's final status, or None when
    there was nothing to do (gone, or finished already)."""
    job = transaction.transactional(bulk.begin)(tenant_id, job_id)
    if job is None:
        return None
    while transaction.transactional(bulk.run_batch)(tenant_id, job_id):
        pass
    return transaction.transactional(lambda: bulk.get_job(tenant_id, job_id).status)()


def recover() -> list[str]:
    """RQ job: enqueue again the bulk jobs no worker holds; book the next run."""
    revived = transaction.transactional(recovery.revive_lost)()
    RECOVER.book()
    return revived

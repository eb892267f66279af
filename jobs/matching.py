"""The matching jobs: the tenant's rules run on a document after its extraction committed
(enqueued by services/matching/runner.py), one rule applied over existing documents a batch
per transaction (services/matching/apply.py), a tenant's classifier trained, and the
periodic sweeps that retrain tenants whose documents changed enough and revive lost apply
jobs."""

from __future__ import annotations

from datetime import timedelta

from redis.exceptions import RedisError

from services.core import transaction
from services.core.queue import Periodic
from services.matching import apply, recovery, runner, training

RETRAIN = Periodic("matching-retrain", "jobs.matching.retrain_due", every=timedelta(hours=1))
RECOVER = Periodic("matching-recover", "jobs.matching.recover", every=timedelta(minutes=5))
PERIODIC = [RETRAIN, RECOVER]


def run_rules(tenant_id: str, document_ids: list[str] | str) -> dict[str, list[str]]:
    """RQ job: every enabled rule of the tenant, in order, on each document (its own unit of
    work); the ids of the rules that changed each one (a job enqueued with one id, as before
    batches, is a batch of one)."""
    ids = [document_ids] if isinstance(document_ids, str) else document_ids
    return {i: transaction.transactional(runner.run_rules)(tenant_id, i) for i in ids}


def run_apply(tenant_id: str, job_id: str) -> str | None:
    """RQ job: run one rule over the job's documents a batch at a time; the job's final
    status, or None when there was nothing to do."""
    job = transaction.transactional(apply.begin)(tenant_id, job_id)
    if job is None:
        return None
    while transaction.transactional(apply.run_batch)(tenant_id, job_id):
        pass
    return transaction.transactional(lambda: apply.status_of(tenant_id, job_id))()


def train(tenant_id: str) -> int:
    """RQ job: train the tenant's classifier (a progress bar on the worker's stderr); the
    number of documents it learned from (0: too few)."""
    training.started(tenant_id)
    row = transaction.transactional(training.train)(tenant_id, progress=True)
    return row.documents if row is not None else 0


def retrain_due() -> list[str]:
    """RQ job: enqueue a training for each tenant whose classifier is due; book the next
    run."""
    due = transaction.transactional(training.tenants_due)()
    enqueued = []
    for tenant_id in due:
        try:
            if training.enqueue(tenant_id):
                enqueued.append(tenant_id)
        except RedisError:
            continue  # the next run asks again
    RETRAIN.book()
    return enqueued


def recover() -> list[str]:
    """RQ job: enqueue again the apply jobs no worker holds; book the next run."""
    revived = transaction.transactional(recovery.revive_lost)()
    RECOVER.book()
    return revived

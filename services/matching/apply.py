"""`POST /matching-rules/{id}/apply`: one rule run over existing documents, as a background
job of the bulk capability's kind (models/bulk.py's `Job`, type `matching.apply`, read with
`GET /jobs/{id}`). The documents are named by id or by the documents list's filters,
resolved in the tenant when the job starts; a batch of documents per transaction, each
document in its own savepoint, and another tenant's document (or none) is that document's
NOT_FOUND. The rule runs whether or not it is enabled (asking for it is the point)."""

from __future__ import annotations

import dataclasses

from sqlalchemy import func, select

from errors import DomainError, FieldError, validation_failed
from extensions import db
from models.bulk import MAX_KEPT_ERRORS, Job, JobStatus
from models.documents import Document, DocumentStatus
from models.matching import MatchingRule
from services.bulk import bulk
from services.bulk.wire import MAX_DOCUMENTS
from services.core import queue, transaction
from services.core.actors import Actor
from services.matching import runner
from services.matching.wire import MatchingRuleApply

JOB_TYPE = "matching.apply"
RUN_JOB = "jobs.matching.run_apply"
BATCH_SIZE = 200
JOB_TIMEOUT = 3600


def request_apply(rule: MatchingRule, body: MatchingRuleApply, actor: Actor) -> Job:
    """Check the selection (a filter's custom field query and size: 422 naming the field),
    keep the job and enqueue it once the request commits."""
    tenant_id = rule.tenant_id
    if body.filter is not None:
        try:
            statement = bulk.selection(tenant_id, body.filter, select(Document.id))
        except DomainError as exc:
            raise validation_failed(
                [FieldError("VALIDATION_ERROR", e.message, f"filter.{e.field or ''}".rstrip("."))
                 for e in exc.errors]
            ) from None  # fmt: skip
        found = db.session.scalar(
            select(func.count()).select_from(statement.limit(MAX_DOCUMENTS + 1).subquery())
        )
        if found > MAX_DOCUMENTS:
            message = f"filter: matches more than {MAX_DOCUMENTS:,} documents; narrow it."
            raise validation_failed([FieldError("VALIDATION_ERROR", message, "filter")])
    job = Job(
        tenant_id=tenant_id,
        type=JOB_TYPE,
        status=JobStatus.QUEUED.value,
        request={"ruleId": rule.id, **body.stored()},
        actor=dataclasses.asdict(actor),
        errors=[],
    )
    db.session.add(job)
    db.session.flush()
    transaction.after_commit(lambda job_id=job.id: enqueue(tenant_id, job_id))
    return job


def enqueue(tenant_id: str, job_id: str) -> None:
    queue.enqueue(RUN_JOB, tenant_id, job_id, job_id=rq_job_id(job_id), job_timeout=JOB_TIMEOUT)


def rq_job_id(job_id: str) -> str:
    return queue.named_job_id("matching", job_id)


def begin(tenant_id: str, job_id: str) -> Job | None:
    """The job, running, its documents fixed now (in the tenant only); None when it is gone
    or finished. A rule deleted before the job starts fails the job."""
    job = Job.find_for_tenant(job_id, tenant_id)
    if job is None or job.finished or job.type != JOB_TYPE:
        return None
    if job.document_ids is None:
        body = MatchingRuleApply.model_validate(
            {k: v for k, v in job.request.items() if k != "ruleId"}
        )
        if body.filter is not None:
            statement = bulk.selection(tenant_id, body.filter, select(Document.id))
            ids = list(db.session.scalars(statement.order_by(Document.id).limit(MAX_DOCUMENTS)))
        else:
            ids = list(dict.fromkeys(body.document_ids or []))
        job.document_ids = ids
        job.total = len(ids)
    job.status = JobStatus.RUNNING.value
    db.session.flush()
    return job


def run_batch(tenant_id: str, job_id: str) -> bool:
    """Run the rule on the job's next batch of documents and count them; whether documents
    are left."""
    job = bulk.claim(tenant_id, job_id)
    ids = (job.document_ids or [])[job.position : job.position + BATCH_SIZE]
    rule = MatchingRule.find_for_tenant(job.request.get("ruleId", ""), tenant_id)
    found = Document.get_many_for_tenant(ids, tenant_id)
    failures: list[dict[str, str]] = []
    for document_id in ids:
        document = found.get(document_id)
        if document is None:
            failures.append(bulk.failure(document_id, "NOT_FOUND", "Document not found."))
            continue
        if rule is None:
            failures.append(bulk.failure(document_id, "NOT_FOUND", "Matching rule not found."))
            continue
        if document.status != DocumentStatus.ACTIVE.value:
            failures.append(bulk.failure(document_id, "CONFLICT", "The document is in the trash."))
            continue
        try:
            with db.session.begin_nested():
                reading = runner.Reading(document)
                if runner.matches(rule, reading):
                    runner.apply_rules([rule], reading, job_id=job.id)
        except DomainError as exc:
            failures.append(bulk.failure(document_id, exc.code, exc.message))
    job.position += len(ids)
    job.done += len(ids)
    job.failed += len(failures)
    if failures and len(job.errors) < MAX_KEPT_ERRORS:
        job.errors = [*job.errors, *failures][:MAX_KEPT_ERRORS]
    more = job.position < job.total
    if not more:
        bulk.finish(job)
    db.session.flush()
    return more


def status_of(tenant_id: str, job_id: str) -> str:
    return Job.get_for_tenant(job_id, tenant_id).status

"""Bulk edits of documents (CONTRACT §10): a request is checked, kept as a job (`job_…`) and
answered at once; the job then resolves its documents in the tenant and applies the
operations a batch per transaction, counting progress and keeping each document's failure.

Each document's change goes through the services a single change uses (services/documents'
update and trash, services/customfields' value setter, services/workflows' start), so it
emits the same event, and gets its own audit entry in the requester's name. A batch's
changes and the job's `position` commit together: a re-run after a crash starts after the
last committed batch and never applies a batch twice."""

from __future__ import annotations

import dataclasses
from typing import Any

from sqlalchemy import Select, func, select, update

import clock
from errors import DomainError, FieldError, validation_failed
from extensions import db
from models.bulk import MAX_KEPT_ERRORS, Job, JobStatus
from models.documents import Document, DocumentStatus
from models.workflows import OPEN_STATES, WorkflowDefinition, WorkflowInstance
from services.audit import audit_log
from services.bulk.wire import MAX_DOCUMENTS, BulkEdit, DocumentSelection
from services.core import queue, transaction
from services.core.actors import Actor
from services.customfields import query as custom_field_query
from services.customfields import values as custom_field_values
from services.documents import documents
from services.documents import wire as documents_wire
from services.documents.filters import apply_filters
from services.workflows import instances

JOB_TYPE = "documents.bulk"
RUN_JOB = "jobs.bulk.run_job"
BATCH_SIZE = 200
# RQ's limit for one run; a run that reaches it is continued by the recovery sweep.
JOB_TIMEOUT = 3600
EDITED = "document.bulk_edited"
# The operations that change what a document's event shows beside its own fields.
_CHANGING_EXTRAS = {"setCustomFields", "startWorkflow"}


def get_job(tenant_id: str, job_id: str) -> Job:
    return Job.get_for_tenant(job_id, tenant_id)


# --- the request -------------------------------------------------------------------------------


def request_edit(tenant_id: str, edit: BulkEdit, actor: Actor) -> Job:
    """Check what the job will need (a filter's custom field query and size, custom field
    values, workflow definitions: 422 naming the field), keep the job and enqueue it once
    the request commits."""
    _check(tenant_id, edit)
    job = Job(
        tenant_id=tenant_id,
        type=JOB_TYPE,
        status=JobStatus.QUEUED.value,
        request=edit.stored(),
        actor=dataclasses.asdict(actor),
        errors=[],
    )
    db.session.add(job)
    db.session.flush()
    transaction.after_commit(lambda job_id=job.id: enqueue(tenant_id, job_id))
    return job


def enqueue(tenant_id: str, job_id: str) -> None:
    """Hand the job to a worker under an id that names it, so that the recovery sweep can tell
    whether a worker still has it."""
    queue.enqueue(RUN_JOB, tenant_id, job_id, job_id=rq_job_id(job_id), job_timeout=JOB_TIMEOUT)


def rq_job_id(job_id: str) -> str:
    return queue.named_job_id("bulk", job_id)


def _check(tenant_id: str, edit: BulkEdit) -> None:
    errors: list[FieldError] = []
    if edit.filter is not None:
        try:
            statement = selection(tenant_id, edit.filter, select(Document.id))
        except DomainError as exc:
            raise _renamed(exc, "filter.") from None
        found = db.session.scalar(
            select(func.count()).select_from(statement.limit(MAX_DOCUMENTS + 1).subquery())
        )
        if found > MAX_DOCUMENTS:
            message = f"filter: matches more than {MAX_DOCUMENTS:,} documents; narrow it."
            errors.append(FieldError("VALIDATION_ERROR", message, "filter"))
    for index, operation in enumerate(edit.operations):
        prefix = f"operations.{index}."
        if operation.op == "setCustomFields":
            try:
                custom_field_values.check_values(tenant_id, operation.custom_fields)
            except DomainError as exc:
                errors.extend(_renamed(exc, prefix).errors)
        elif (
            operation.op == "startWorkflow"
            and WorkflowDefinition.find_for_tenant(operation.definition_id, tenant_id) is None
        ):
            message = f"{prefix}definitionId: no such workflow definition."
            errors.append(FieldError("VALIDATION_ERROR", message, f"{prefix}definitionId"))
    if errors:
        raise validation_failed(errors)


def _renamed(exc: DomainError, prefix: str) -> DomainError:
    """`exc` as a 422 whose fields sit under `prefix` (a filter's `customFieldQuery` is the
    request's `filter.customFieldQuery`)."""
    renamed = [
        FieldError(e.code if exc.status == 422 else "VALIDATION_ERROR", e.message,
                   prefix + (e.field or "").rstrip(".") if e.field else prefix.rstrip("."))
        for e in exc.errors
    ]  # fmt: skip
    return validation_failed(renamed)


def selection(tenant_id: str, filters: DocumentSelection, columns: Select) -> Select:
    statement = apply_filters(columns, tenant_id, filters)
    if filters.custom_field_query is not None:
        statement = statement.where(
            custom_field_query.compile_query(tenant_id, filters.custom_field_query)
        )
    return statement


# --- the job -----------------------------------------------------------------------------------


def begin(tenant_id: str, job_id: str) -> Job | None:
    """The job, running, its documents fixed (a filter resolved now, in the tenant only);
    None when it is gone or finished."""
    job = Job.find_for_tenant(job_id, tenant_id)
    if job is None or job.finished:
        return None
    if job.document_ids is None:
        edit = BulkEdit.model_validate(job.request)
        if edit.filter is not None:
            statement = selection(tenant_id, edit.filter, select(Document.id))
            ids = list(db.session.scalars(statement.order_by(Document.id).limit(MAX_DOCUMENTS)))
        else:
            ids = list(dict.fromkeys(edit.document_ids or []))
        job.document_ids = ids
        job.total = len(ids)
    job.status = JobStatus.RUNNING.value
    db.session.flush()
    return job


def run_batch(tenant_id: str, job_id: str) -> bool:
    """Apply the operations to the job's next batch of documents and count them; whether
    documents are left. A document another tenant owns (or none does) is its NOT_FOUND, and
    any refusal of one document (a CONFLICT, a VALIDATION_ERROR) rolls back that document's
    changes only."""
    job = claim(tenant_id, job_id)
    ids = (job.document_ids or [])[job.position : job.position + BATCH_SIZE]
    edit = BulkEdit.model_validate(job.request)
    actor = Actor(**job.actor)
    details = {"jobId": job.id, "operations": [o.op for o in edit.operations]}
    with transaction.memoized():
        try:
            # The batch as one change: its rows written together, not a document at a time.
            with db.session.begin_nested():
                failures, changed = _apply_batch(tenant_id, ids, edit, actor, careful=False)
        except DomainError:
            # A document refused: the batch again, each document in a savepoint of its own,
            # so that a refusal rolls back that document's changes only.
            failures, changed = _apply_batch(tenant_id, ids, edit, actor, careful=True)
    # Each changed document's own entry, chained in one write for the batch.
    audit_log.record_many(
        tenant_id, actor, [audit_log.Change(EDITED, "document", d, details) for d in changed]
    )
    job.position += len(ids)
    job.done += len(ids)
    job.failed += len(failures)
    if failures and len(job.errors) < MAX_KEPT_ERRORS:
        job.errors = [*job.errors, *failures][:MAX_KEPT_ERRORS]
    more = job.position < job.total
    if not more:
        finish(job)
    db.session.flush()
    return more


def _apply_batch(
    tenant_id: str, ids: list[str], edit: BulkEdit, actor: Actor, *, careful: bool
) -> tuple[list[dict[str, str]], list[str]]:
    """The edit on each of the tenant's documents among `ids`: the failures, and the ids of
    the documents it changed. `careful`: each document in its own savepoint, a refusal being
    that document's failure; otherwise a refusal raises."""
    found = Document.get_many_for_tenant(ids, tenant_id)
    if not {o.op for o in edit.operations} & _CHANGING_EXTRAS:
        documents_wire.prefetch_extras(tenant_id, list(found))
    failures: list[dict[str, str]] = []
    changed: list[str] = []
    for document_id in ids:
        document = found.get(document_id)
        if document is None:
            failures.append(failure(document_id, "NOT_FOUND", "Document not found."))
        elif not careful:
            if _apply(document, edit, actor):
                changed.append(document_id)
        else:
            try:
                with db.session.begin_nested():
                    if _apply(document, edit, actor):
                        changed.append(document_id)
            except DomainError as exc:
                failures.append(failure(document_id, exc.code, exc.message))
    return failures, changed


def claim(tenant_id: str, job_id: str) -> Job:
    """The job's row, written first in the batch's transaction: the write locks it (SQLite's
    BEGIN IMMEDIATE, PostgreSQL's row lock), so a second run of the same job waits and then
    reads the position this one committed; and each document's savepoint opens inside the
    transaction (pysqlite begins a transaction only before a write, so a savepoint opened
    before one would begin it, and releasing that savepoint would commit it)."""
    db.session.execute(
        update(Job)
        .where(Job.id == job_id, Job.tenant_id == tenant_id)
        .values(position=Job.position)
        .execution_options(synchronize_session=False)
    )
    job = Job.get_for_tenant(job_id, tenant_id)
    db.session.refresh(job)
    return job


def finish(job: Job) -> None:
    if job.failed == 0:
        job.status = JobStatus.SUCCEEDED.value
    elif job.failed == job.total:
        job.status = JobStatus.FAILED.value
    else:
        job.status = JobStatus.PARTIALLY_FAILED.value
    job.finished_at = clock.now()
    job.document_ids = []  # the ids are not needed any more; the row stays small


def failure(document_id: str, code: str, message: str) -> dict[str, str]:
    return {"documentId": document_id, "code": code, "message": message[:500]}


def _apply(document: Document, edit: BulkEdit, actor: Actor) -> bool:
    """One document's operations, folded into the change a PATCH makes (tags added and
    removed in order, metadata merged in order, custom field values, trash or restore: the
    last of them wins), then the workflows started; whether anything changed."""
    changes: dict[str, Any] = {}
    tags = list(document.tag_names)
    metadata: dict[str, str | None] = {}
    values: dict[str, Any] = {}
    status: DocumentStatus | None = None
    definitions: list[str] = []
    for operation in edit.operations:
        if operation.op == "addTags":
            tags.extend(t for t in operation.tags if t not in tags)
            changes["tags"] = tags
        elif operation.op == "removeTags":
            tags = [t for t in tags if t not in operation.tags]
            changes["tags"] = tags
        elif operation.op == "setMetadata":
            metadata.update(operation.metadata)
            changes["metadata"] = metadata
        elif operation.op == "setCustomFields":
            values.update(operation.custom_fields)
        elif operation.op == "trash":
            status = DocumentStatus.DELETED
        elif operation.op == "restore":
            status = DocumentStatus.ACTIVE
        else:
            definitions.append(operation.definition_id)
    before = (document.updated_at, document.status)
    also = None
    if values:

        def also(changed: Document) -> bool:
            return bool(custom_field_values.set_values(changed, values, actor))

    if status is DocumentStatus.ACTIVE and document.status == DocumentStatus.DELETED.value:
        changes["status"] = status
    if changes or also is not None:
        documents.update_document(document, changes, actor, also)
    if status is DocumentStatus.DELETED:
        documents.trash_document(document, actor)
    started = [d for d in definitions if start_workflow_once(document, d, actor)]
    return (document.updated_at, document.status) != before or bool(started)


def start_workflow_once(document: Document, definition_id: str, actor: Actor) -> bool:
    """Start the definition on the document unless an instance of it is still open there
    (a bulk edit asked again starts nothing twice)."""
    open_instance = db.session.scalar(
        select(WorkflowInstance.id).where(
            WorkflowInstance.tenant_id == document.tenant_id,
            WorkflowInstance.definition_id == definition_id,
            WorkflowInstance.subject_type == "document",
            WorkflowInstance.subject_id == document.id,
            WorkflowInstance.state.in_(OPEN_STATES),
        )
    )
    if open_instance is not None:
        return False
    instances.start_instance(document.tenant_id, definition_id, "document", document.id, actor)
    return True

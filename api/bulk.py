"""Bulk edits and jobs (CONTRACT §10): `POST /documents/bulk` checks the request and answers
202 with a job; `GET /jobs/{id}` shows its progress and per-document errors. Routes only:
services/bulk works (docs/bulk.md)."""

from __future__ import annotations

from flask import url_for

from api.auth import current_credential, require_scope
from api.blueprint import bp
from api.envelope import ok
from api.idempotency import idempotent
from api.openapi_rules import operation
from api.validation import json_body, responds
from errors import DomainError
from services.bulk import bulk, wire
from services.bulk.wire import BulkEdit, JobOut
from tenancy import current_tenant

# What an operation needs beside documents:write.
_OPERATION_SCOPES = {"startWorkflow": "workflows:write"}


@bp.post("/documents/bulk")
@require_scope("documents:write")
@idempotent()
@json_body(BulkEdit)
@responds(JobOut, status=202)
@operation("updateDocumentsInBulk", tag="bulk")
def bulk_edit_documents(body: BulkEdit):
    """Apply operations (add or remove tags, set metadata or custom fields, trash, restore,
    start a workflow) to documents named by id or matching the documents list's filters.
    Answers 202 with a job (`GET /jobs/{id}`); each document's failure is in its errors
    (another tenant's document is NOT_FOUND). startWorkflow also needs workflows:write.
    Accepts Idempotency-Key."""
    needed = {_OPERATION_SCOPES[o.op] for o in body.operations if o.op in _OPERATION_SCOPES}
    missing = sorted(needed - set(current_credential.scopes))
    if missing:
        raise DomainError(
            403, "INSUFFICIENT_SCOPE", f"This call needs the scope {' and '.join(missing)}."
        )
    job = bulk.request_edit(current_tenant.id, body, current_credential.actor())
    location = url_for("api.get_job", job_id=job.id)
    return ok(wire.job_data(job), status=202, headers={"Location": location})


@bp.get("/jobs/<job_id>")
@require_scope("documents:read")
@responds(JobOut)
@operation("getJob", tag="bulk")
def get_job(job_id: str):
    """A background job's progress: `done` of `total` documents, `failed`, and the first
    100 per-document errors."""
    return ok(wire.job_data(bulk.get_job(current_tenant.id, job_id)))

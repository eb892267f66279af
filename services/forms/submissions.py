"""Submissions: validated against the published schema (one error per failing field), their
files made documents through the upload services, the form's workflow started, and
form.submission.created emitted, all in the caller's one unit of work: a submission that
fails leaves no submission, document, blob, workflow instance or event behind."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, BinaryIO

from sqlalchemy import func, select

from errors import DomainError, FieldError, validation_failed
from extensions import db
from models import Document, DocumentStatus, Form, FormSubmission
from models.base import new_id
from models.documents import SourceType
from services.core import events
from services.core.actors import Actor
from services.core.paging import keyset_page
from services.documents import documents, uploads
from services.forms import forms, schemas, wire
from services.workflows import instances

PUBLIC = "public"
# Stands for a file while the rest of the data is validated, before any file is stored.
_FILE_PLACEHOLDER = "doc_00000000000000000000000000"


@dataclass
class IncomingFile:
    """One uploaded file for a file field: its bytes as a stream and the client's name."""

    stream: BinaryIO
    filename: str


@dataclass
class SubmissionFilters:
    created_after: datetime | None = None
    created_before: datetime | None = None
    submitted_by: str | None = None
    form_version: int | None = None


def _error(field: str, message: str) -> FieldError:
    return FieldError("VALIDATION_ERROR", message, f"/{schemas.escape_token(field)}")


def _check_files(
    form: Form, data: dict[str, Any], files: dict[str, IncomingFile]
) -> tuple[list[FieldError], list[str]]:
    """Errors of the file fields, and the existing documents named by id in the data."""
    file_fields = set(schemas.file_fields(form.schema))
    errors = [_error(n, "is not a file field of this form.") for n in files if n not in file_fields]
    attached: list[str] = []
    for name in sorted(file_fields & set(data)):
        if name in files:
            errors.append(_error(name, "send either a file or a document id, not both."))
            continue
        value = data[name]
        document = None
        if isinstance(value, str):
            document = db.session.scalar(
                select(Document).where(
                    Document.id == value,
                    Document.tenant_id == form.tenant_id,
                    Document.status != DocumentStatus.DELETED.value,
                )
            )
        if document is None:
            errors.append(_error(name, "upload a file, or give the id of one of your documents."))
        else:
            attached.append(document.id)
    return errors, attached


def submit(
    form: Form,
    data: Any,
    files: dict[str, IncomingFile],
    actor: Actor,
    *,
    submitted_by: str | None = None,
) -> FormSubmission:
    """A new submission of `form`'s current (published) version: 409 unless published, 422
    with one error per failing field; files become documents; the workflow starts."""
    forms.require_published(form)
    schemas.check_data_shape(data)
    data = dict(data)
    errors, attached = _check_files(form, data, files)
    candidate = {**data, **dict.fromkeys(files, _FILE_PLACEHOLDER)}
    known = {e.field for e in errors}
    errors += [e for e in schemas.data_errors(form.schema, candidate) if e.field not in known]
    if errors:
        raise validation_failed(sorted(errors, key=lambda e: e.field or ""))
    submission_id = new_id("sub")
    document_ids = list(attached)
    with contextlib.ExitStack() as received_files:
        for name, incoming in files.items():
            try:
                received = received_files.enter_context(
                    uploads.receive_file(form.tenant_id, incoming.stream, incoming.filename)
                )
            except DomainError as error:  # over the upload limit: say which field
                error.field = f"/{schemas.escape_token(name)}"
                raise
            document = documents.create_document(
                received,
                actor,
                title=None,
                tags=[],
                metadata={"formId": form.id, "submissionId": submission_id, "formField": name},
                source={
                    "type": SourceType.FORM.value,
                    "formId": form.id,
                    "submissionId": submission_id,
                },
            )
            data[name] = document.id
            document_ids.append(document.id)
        submission = FormSubmission(
            id=submission_id,
            tenant_id=form.tenant_id,
            form_id=form.id,
            form_version=form.version,
            data=data,
            submitted_by=submitted_by or actor.ref,
            document_ids=document_ids,
        )
        db.session.add(submission)
        db.session.flush()
        if form.workflow_definition_id is not None:
            instance = instances.start_instance(
                form.tenant_id,
                form.workflow_definition_id,
                subject_type="formSubmission",
                subject_id=submission.id,
                actor=actor,
            )
            submission.workflow_instance_id = instance.id
            db.session.flush()
        events.emit(
            form.tenant_id,
            "form.submission.created",
            {
                "submission": wire.submission_data(submission),
                "form": {"id": form.id, "name": form.name, "version": form.version},
            },
        )
    return submission


def get_submission(tenant_id: str, submission_id: str) -> FormSubmission:
    """The tenant's submission, or 404 (another tenant's id included)."""
    return FormSubmission.get_for_tenant(submission_id, tenant_id)


def _filtered(form: Form, filters: SubmissionFilters):
    stmt = FormSubmission.query_for_tenant(form.tenant_id).where(FormSubmission.form_id == form.id)
    if filters.created_after is not None:
        stmt = stmt.where(FormSubmission.created_at >= filters.created_after)
    if filters.created_before is not None:
        stmt = stmt.where(FormSubmission.created_at < filters.created_before)
    if filters.submitted_by is not None:
        stmt = stmt.where(FormSubmission.submitted_by == filters.submitted_by)
    if filters.form_version is not None:
        stmt = stmt.where(FormSubmission.form_version == filters.form_version)
    return stmt


def list_submissions(
    form: Form, filters: SubmissionFilters, limit: int, after: Sequence[Any] | None
) -> tuple[list[FormSubmission], bool]:
    """Newest first, a page at a time (keyset on the time-ordered id)."""
    return keyset_page(_filtered(form, filters), [(FormSubmission.id, True)], limit, after)


def count_submissions(form: Form) -> int:
    return db.session.scalar(
        select(func.count())
        .select_from(FormSubmission)
        .where(FormSubmission.tenant_id == form.tenant_id, FormSubmission.form_id == form.id)
    )

"""Forms resource (CONTRACT §4, §9): forms with a JSON Schema, their submissions (JSON, or
multipart with files), one submission, and a form's submissions as CSV. Routes only: the
work is in services/forms (docs/forms.md)."""

from __future__ import annotations

import hashlib

from flask import Response, current_app, request, stream_with_context, url_for

from api.auth import current_credential, require_scope
from api.blueprint import bp
from api.envelope import ok, ok_list
from api.idempotency import idempotent, json_fingerprint, request_digest, set_fingerprint
from api.pagination import id_position
from api.validation import (
    json_body,
    operation_documented,
    parse_json,
    parse_json_text,
    query_args,
    responds,
)
from errors import DomainError, FieldError, validation_failed
from services.core.cursors import binding_of, encode_cursor
from services.core.transaction import transactional
from services.forms import export, forms, submissions, wire
from services.forms.submissions import IncomingFile, SubmissionFilters
from services.forms.wire import (
    FormCreate,
    FormListQuery,
    FormOut,
    FormPatch,
    SubmissionCreate,
    SubmissionFilterQuery,
    SubmissionListQuery,
    SubmissionOut,
)
from tenancy import current_tenant

FORM_OVERHEAD_BYTES = 1024 * 1024  # the data part and the multipart framing
_MULTIPART = "multipart/form-data"

_SUBMISSION_BODY = {
    "required": True,
    "content": {
        "application/json": {
            "schema": {
                "type": "object",
                "required": ["data"],
                "additionalProperties": False,
                "properties": {"data": {"type": "object", "description": "The answers."}},
            }
        },
        _MULTIPART: {
            "schema": {
                "type": "object",
                "properties": {
                    "data": {"type": "object", "description": "The answers but the files."},
                },
                "additionalProperties": {
                    "type": "string",
                    "format": "binary",
                    "description": "One part per file field, named after the field.",
                },
            },
            "encoding": {"data": {"contentType": "application/json"}},
        },
    },
}
_CSV_RESPONSE = {
    "200": {
        "description": "The submissions as CSV (streamed), one column per top-level field.",
        "content": {"text/csv": {"schema": {"type": "string"}}},
    }
}


def _filters(query: SubmissionFilterQuery) -> SubmissionFilters:
    return SubmissionFilters(
        created_after=query.created_after,
        created_before=query.created_before,
        submitted_by=query.submitted_by,
        form_version=query.form_version,
    )


@bp.post("/forms")
@require_scope("forms:write")
@idempotent()
@json_body(FormCreate)
@responds(FormOut, status=201)
def create_form(body: FormCreate):
    """Create a form from a JSON Schema (a draft unless `status` is published). Accepts
    Idempotency-Key."""
    form = forms.create_form(
        current_tenant.id,
        current_credential.actor(),
        name=body.name,
        schema=body.schema_,
        description=body.description,
        workflow_definition_id=body.workflow_definition_id,
        public=body.public,
        status=body.status,
    )
    location = url_for("api.get_form", form_id=form.id)
    return ok(wire.form_data(form), status=201, headers={"Location": location})


@bp.get("/forms")
@require_scope("forms:read")
@query_args(FormListQuery)
@responds(FormOut, many=True)
def list_forms(query: FormListQuery):
    binding = binding_of(current_tenant.id, resource="forms", status=query.status)
    rows, more = forms.list_forms(
        current_tenant.id, query.limit, id_position(query.cursor, binding), query.status
    )
    next_cursor = encode_cursor(binding, [rows[-1].id]) if more else None
    return ok_list(wire.forms_data(rows), limit=query.limit, next_cursor=next_cursor)


@bp.get("/forms/<form_id>")
@require_scope("forms:read")
@responds(FormOut)
def get_form(form_id: str):
    return ok(wire.form_data(forms.get_form(current_tenant.id, form_id)))


@bp.patch("/forms/<form_id>")
@require_scope("forms:write")
@transactional
@json_body(FormPatch)
@responds(FormOut)
def update_form(form_id: str, body: FormPatch):
    """Change fields, publish, archive, or publish an archived form again (409 for any other
    status change). A new schema for a version that went live makes version n+1."""
    form = forms.get_form(current_tenant.id, form_id)
    changes = {
        ("schema" if name == "schema_" else name): getattr(body, name)
        for name in body.model_fields_set
    }
    forms.update_form(form, changes, current_credential.actor())
    return ok(wire.form_data(form))


@bp.get("/forms/<form_id>/submissions")
@require_scope("forms:read")
@query_args(SubmissionListQuery)
@responds(SubmissionOut, many=True)
def list_form_submissions(form_id: str, query: SubmissionListQuery):
    form = forms.get_form(current_tenant.id, form_id)
    binding = binding_of(
        current_tenant.id,
        resource="submissions",
        form=form.id,
        filters=query.model_dump(exclude={"limit", "cursor"}, mode="json"),
    )
    rows, more = submissions.list_submissions(
        form, _filters(query), query.limit, id_position(query.cursor, binding)
    )
    next_cursor = encode_cursor(binding, [rows[-1].id]) if more else None
    return ok_list(wire.submissions_data(rows), limit=query.limit, next_cursor=next_cursor)


@bp.get("/forms/<form_id>/submissions.csv")
@require_scope("forms:read")
@query_args(SubmissionFilterQuery)
@operation_documented({"responses": _CSV_RESPONSE})
def export_form_submissions(form_id: str, query: SubmissionFilterQuery):
    """The form's submissions as CSV, streamed, newest first, with the list's filters. Text
    cells that start like a spreadsheet formula (= + - @) are prefixed with an apostrophe."""
    form = forms.get_form(current_tenant.id, form_id)
    lines = export.csv_lines(form, _filters(query))
    return Response(
        stream_with_context(lines),
        mimetype="text/csv",
        headers={
            "Content-Disposition": f'attachment; filename="{form.id}-submissions.csv"',
            "Cache-Control": "no-store",
        },
    )


def _refuse_oversized_body() -> None:
    """413 from Content-Length alone, before the body is read; and the same bound for a
    body without one (werkzeug stops reading there)."""
    limit = current_app.config["DMS_MAX_UPLOAD_BYTES"] + FORM_OVERHEAD_BYTES
    if (request.content_length or 0) > limit:
        raise DomainError(413, "PAYLOAD_TOO_LARGE", f"Submissions are limited to {limit} bytes.")
    request.max_content_length = limit


def _multipart_fingerprint() -> str:
    """Method, path, every field, and every file's name and bytes (not the boundary)."""
    parts: list[str] = []
    for name, value in sorted(request.form.items(multi=True)):
        parts += ["f", name, value]
    for name, storage in sorted(request.files.items(multi=True), key=lambda item: item[0]):
        digest = hashlib.sha256()
        storage.stream.seek(0)
        for chunk in iter(lambda storage=storage: storage.stream.read(64 * 1024), b""):
            digest.update(chunk)
        storage.stream.seek(0)
        parts += ["F", name, storage.filename or "", digest.hexdigest()]
    return request_digest(request.method, request.path, *parts)


def _submission_fingerprint() -> str:
    if request.mimetype == _MULTIPART:
        _refuse_oversized_body()
        return _multipart_fingerprint()
    return json_fingerprint()


def _multipart_submission() -> tuple[object, dict[str, IncomingFile]]:
    _refuse_oversized_body()
    set_fingerprint(_multipart_fingerprint())
    errors = [
        FieldError("VALIDATION_ERROR", f"Unknown form field {name!r}: send 'data' and files.", name)
        for name in request.form
        if name != "data"
    ]
    raw = request.form.getlist("data")
    data: object = {}
    if len(raw) > 1:
        errors.append(FieldError("VALIDATION_ERROR", "data: given twice.", "data"))
    elif raw:
        try:
            data = parse_json_text(raw[0])
        except ValueError as exc:
            errors.append(FieldError("VALIDATION_ERROR", f"data: {exc}", "data"))
    files: dict[str, IncomingFile] = {}
    for name in request.files:
        parts = request.files.getlist(name)
        if len(parts) > 1:
            errors.append(FieldError("VALIDATION_ERROR", "one file per field.", f"/{name}"))
        elif parts[0].filename:
            files[name] = IncomingFile(parts[0].stream, parts[0].filename)
    if errors:
        raise validation_failed(errors)
    return data, files


@bp.post("/forms/<form_id>/submissions")
@require_scope("forms:write")
@idempotent(fingerprint=_submission_fingerprint)
@operation_documented({"requestBody": _SUBMISSION_BODY, "responses": {}})
@responds(SubmissionOut, status=201)
def create_form_submission(form_id: str):
    """Submit answers to a published form (409 otherwise): JSON `{"data": {…}}`, or
    multipart/form-data with a `data` part and one file part per file field, each of which
    becomes a document. 422 names every failing field by its JSON pointer (`/amount`).
    Starts the form's workflow. Accepts Idempotency-Key."""
    form = forms.get_form(current_tenant.id, form_id)
    forms.require_published(form)
    if request.mimetype == _MULTIPART:
        data, files = _multipart_submission()
    else:
        data, files = parse_json(SubmissionCreate).data, {}  # type: ignore[attr-defined]
    submission = submissions.submit(form, data, files, current_credential.actor())
    location = url_for("api.get_form_submission", submission_id=submission.id)
    return ok(wire.submission_data(submission), status=201, headers={"Location": location})


@bp.get("/forms/submissions/<submission_id>")
@require_scope("forms:read")
@responds(SubmissionOut)
def get_form_submission(submission_id: str):
    return ok(wire.submission_data(submissions.get_submission(current_tenant.id, submission_id)))

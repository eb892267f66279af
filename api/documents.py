"""Documents resource (CONTRACT §4): upload, list with filters, read, download, change,
trash, and versions. Routes only: parsing and shaping; the work is in services/documents.

A version's download is services/documents/download.py's response: a strong ETag (the sha256),
If-None-Match → 304, single byte ranges → 206, a safe RFC 6266 Content-Disposition, and
headers that stop browsers from sniffing or rendering the content as our origin."""

from __future__ import annotations

from typing import Any

from flask import current_app, request, url_for
from pydantic import ValidationError

from api.auth import current_credential, require_scope
from api.blueprint import bp
from api.envelope import RawJSON, ok, ok_list
from api.idempotency import idempotent, request_digest, set_fingerprint
from api.openapi_components import binary_responses
from api.openapi_rules import operation
from api.validation import (
    field_error,
    form_body,
    json_body,
    operation_documented,
    parse_json_text,
    parse_query,
    query_args,
    responds,
)
from errors import DomainError, FieldError, validation_failed
from models.documents import SourceType
from services.core.cursors import binding_of, decode_cursor, encode_cursor
from services.core.transaction import transactional
from services.customfields import query as custom_field_query
from services.customfields import values as custom_field_values
from services.documents import documents, listing, uploads, wire
from services.documents.download import content_response
from services.documents.filters import parse_position, position_of
from services.documents.wire import (
    ContentQuery,
    DocumentListQuery,
    DocumentOut,
    DocumentPatch,
    DocumentVersionOut,
    UploadForm,
    VersionListQuery,
)
from services.graph import mentions
from services.graph.wire import DocumentWithEntitiesOut
from services.views import views
from tenancy import current_tenant

# Room for the multipart framing and the small fields around the file.
FORM_OVERHEAD_BYTES = 1024 * 1024


def _refuse_oversized_body() -> None:
    """413 from Content-Length alone, before a byte of the body is read."""
    limit = current_app.config["DMS_MAX_UPLOAD_BYTES"]
    if (request.content_length or 0) > limit + FORM_OVERHEAD_BYTES:
        raise DomainError(413, "PAYLOAD_TOO_LARGE", f"Uploads are limited to {limit} bytes.")


def _upload_fingerprint() -> str:
    """What makes two uploads the same request: the path, every part's name, file name and
    bytes (not the multipart boundary, which each client picks at random)."""
    _refuse_oversized_body()
    parts = uploads.upload_fingerprint(request.stream, request.mimetype, request.mimetype_params)
    return request_digest(request.method, request.path, parts)


def _upload_form(fields: dict[str, list[str]]) -> UploadForm:
    """Validate an upload's multipart fields: tags repeat or comma-separate, metadata and
    customFields are JSON objects."""
    errors: list[FieldError] = []
    raw: dict[str, Any] = {}
    for name, values in fields.items():
        if name == "tags":
            raw["tags"] = [t for v in values for t in v.split(",") if t.strip()]
        elif len(values) > 1:
            errors.append(FieldError("VALIDATION_ERROR", f"{name}: given twice.", name))
        elif name in ("metadata", "customFields"):
            try:
                raw[name] = parse_json_text(values[0]) if values[0].strip() else {}
            except ValueError as exc:
                errors.append(FieldError("VALIDATION_ERROR", f"{name}: {exc}", name))
        else:
            raw[name] = values[0]
    if not errors:
        try:
            return UploadForm.model_validate(raw)
        except ValidationError as exc:
            errors = [field_error(e, "VALIDATION_ERROR", form=True) for e in exc.errors()]
    raise validation_failed(errors)


def _receive():
    _refuse_oversized_body()
    return uploads.receive_upload(
        current_tenant.id, request.stream, request.mimetype, request.mimetype_params
    )


@bp.post("/documents")
@require_scope("documents:write")
@idempotent(fingerprint=_upload_fingerprint)
@form_body(UploadForm, files={"file": "The document's content (the type is read from it)."})
@responds(DocumentOut, status=201)
def upload_document():
    """multipart/form-data: `file`, optional `title`, `tags` (repeat or comma list), `metadata`
    (a JSON object of strings), `customFields` (a JSON object: field id -> value). Accepts
    Idempotency-Key."""
    actor = current_credential.actor()
    with _receive() as received:
        set_fingerprint(request_digest(request.method, request.path, received.fingerprint))
        form = _upload_form(received.fields)
        if form.custom_fields:  # 422 before the document is made
            custom_field_values.check_values(current_tenant.id, form.custom_fields)
        document = documents.create_document(
            received,
            actor,
            title=form.title,
            tags=form.tags,
            metadata=form.metadata,
            source={"type": SourceType.API.value},
            prepare=lambda new: custom_field_values.set_values(new, form.custom_fields, actor),
        )
    location = url_for("api.get_document", document_id=document.id)
    return ok(wire.document_data(document), status=201, headers={"Location": location})


@bp.get("/documents")
@require_scope("documents:read")
@query_args(DocumentListQuery)
@responds(DocumentOut, many=True)
def list_documents(query: DocumentListQuery):
    if query.saved_view is not None:
        view = views.get_view(current_tenant.id, query.saved_view, current_credential.actor())
        query = parse_query(DocumentListQuery, base=views.list_parameters(view))
    binding = binding_of(current_tenant.id, resource="documents", filters=query.binding())
    position = None
    if query.cursor is not None:
        position = parse_position(decode_cursor(query.cursor, binding), query.sort)
        if position is None:
            raise DomainError(400, "INVALID_CURSOR", "This cursor is not valid.", "cursor")
    condition = None
    if query.custom_field_query is not None:
        condition = custom_field_query.compile_query(current_tenant.id, query.custom_field_query)
    rows, more = listing.list_page(current_tenant.id, query, query.limit, position, condition)
    next_cursor = encode_cursor(binding, position_of(rows[-1], query.sort)) if more else None
    data = RawJSON(wire.listed_documents_json(rows))
    return ok_list(data, limit=query.limit, next_cursor=next_cursor)


@bp.get("/documents/<document_id>")
@require_scope("documents:read")
@responds(DocumentWithEntitiesOut)
def get_document(document_id: str):
    """The document; with knowledge-graph:read also the entities its text mentions."""
    document = documents.get_document(current_tenant.id, document_id)
    data = wire.document_data(document)
    data["entities"] = None
    if "knowledge-graph:read" in current_credential.scopes:
        found = mentions.entities_of(current_tenant.id, [document.id])
        data["entities"] = found.get(document.id, [])
    return ok(data)


@bp.patch("/documents/<document_id>")
@require_scope("documents:write")
@transactional
@json_body(DocumentPatch)
@responds(DocumentOut)
def update_document(document_id: str, body: DocumentPatch):
    """Change the title, tags, metadata (merged; null removes a key), status, and custom
    field values (`customFields`: field id -> value, null removes it)."""
    document = documents.get_document(current_tenant.id, document_id)
    changes = {name: getattr(body, name) for name in body.model_fields_set}
    raw_values, actor = changes.pop("custom_fields", None), current_credential.actor()
    also = None
    if raw_values is not None:  # 422 before any other change
        custom_field_values.check_values(current_tenant.id, raw_values)

        def also(changed):
            return bool(custom_field_values.set_values(changed, raw_values, actor))

    document = documents.update_document(document, changes, actor, also)
    return ok(wire.document_data(document))


@bp.delete("/documents/<document_id>")
@require_scope("documents:write")
@transactional
@responds(DocumentOut)
def delete_document(document_id: str):
    """Moves the document to the trash; PATCH status `active` restores it."""
    document = documents.get_document(current_tenant.id, document_id)
    document = documents.trash_document(document, current_credential.actor())
    return ok(wire.document_data(document))


@bp.get("/documents/<document_id>/content")
@require_scope("documents:read")
@query_args(ContentQuery)
@operation_documented({"responses": binary_responses()})
def get_document_content(document_id: str, query: ContentQuery):
    document = documents.get_document(current_tenant.id, document_id)
    return content_response(documents.get_version(document, query.version))


@bp.post("/documents/<document_id>/versions")
@require_scope("documents:write")
@idempotent(fingerprint=_upload_fingerprint)
@form_body(None, files={"file": "The new content; it becomes the current version."})
@responds(DocumentVersionOut, status=201)
@operation("uploadDocumentVersion")
def upload_version(document_id: str):
    """multipart/form-data with a `file` part: new content, which becomes current."""
    document = documents.get_document(current_tenant.id, document_id)
    with _receive() as received:
        set_fingerprint(request_digest(request.method, request.path, received.fingerprint))
        if received.fields:  # a version carries content only
            name = sorted(received.fields)[0]
            raise DomainError(
                422, "VALIDATION_ERROR", f"Unknown field {name!r}: send only 'file'.", name
            )
        version = documents.add_version(document, received, current_credential.actor())
    location = url_for("api.get_document_content", document_id=document.id, version=version.number)
    return ok(wire.version_data(version), status=201, headers={"Location": location})


@bp.get("/documents/<document_id>/versions")
@require_scope("documents:read")
@query_args(VersionListQuery)
@responds(DocumentVersionOut, many=True)
@operation("listDocumentVersions")
def list_versions(document_id: str, query: VersionListQuery):
    document = documents.get_document(current_tenant.id, document_id)
    binding = binding_of(current_tenant.id, resource="versions", document=document.id)
    after = None
    if query.cursor is not None:
        position = decode_cursor(query.cursor, binding)
        if len(position) != 1 or not isinstance(position[0], int):
            raise DomainError(400, "INVALID_CURSOR", "This cursor is not valid.", "cursor")
        after = position[0]
    rows, more = documents.list_versions(document, query.limit, after)
    next_cursor = encode_cursor(binding, [rows[-1].number]) if more else None
    return ok_list(wire.versions_data(rows), limit=query.limit, next_cursor=next_cursor)

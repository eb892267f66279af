"""Notes resource (CONTRACT §10): a document's notes, newest first, writing one (its
`@email` mentions notify those people) and deleting one (its author or an admin). Reading
needs documents:read, writing and deleting documents:write. Routes only: services/notes works
(docs/notes.md)."""

from __future__ import annotations

from flask import url_for

from api.auth import current_credential, require_scope
from api.blueprint import bp
from api.envelope import ok, ok_list
from api.idempotency import idempotent
from api.openapi_rules import operation
from api.pagination import id_position
from api.validation import also_answers, json_body, query_args, responds
from services.core.cursors import binding_of, encode_cursor
from services.core.transaction import transactional
from services.notes import notes, wire
from services.notes.wire import NoteCreate, NoteListQuery, NoteOut
from tenancy import current_tenant


@bp.get("/documents/<document_id>/notes")
@require_scope("documents:read")
@query_args(NoteListQuery)
@responds(NoteOut, many=True)
@operation(tag="notes")
def list_document_notes(document_id: str, query: NoteListQuery):
    """The document's notes, newest first (a trashed document's too)."""
    document = notes.document_of(current_tenant.id, document_id)
    binding = binding_of(current_tenant.id, resource="notes", document=document.id)
    rows, more = notes.list_notes(document, query.limit, id_position(query.cursor, binding))
    next_cursor = encode_cursor(binding, [rows[-1].id]) if more else None
    return ok_list(wire.notes_data(rows), limit=query.limit, next_cursor=next_cursor)


@bp.post("/documents/<document_id>/notes")
@require_scope("documents:write")
@idempotent()
@json_body(NoteCreate)
@responds(NoteOut, status=201)
@operation(tag="notes")
def create_document_note(document_id: str, body: NoteCreate):
    """Write a note; each `@email` of a person of the tenant notifies them (note.mention).
    409 on a trashed document. Accepts Idempotency-Key."""
    document = notes.document_of(current_tenant.id, document_id)
    note = notes.add_note(document, body.body, current_credential.actor())
    location = url_for("api.list_document_notes", document_id=document.id)
    return ok(wire.note_data(note), status=201, headers={"Location": location})


@bp.delete("/documents/<document_id>/notes/<note_id>")
@require_scope("documents:write")
@transactional
@responds(NoteOut)
@also_answers(409)
@operation(tag="notes")
def delete_document_note(document_id: str, note_id: str):
    """Delete a note: its author (the same person or API key) or an admin; answers with what
    was deleted. 409 on a trashed document."""
    document = notes.document_of(current_tenant.id, document_id)
    note = notes.get_note(document, note_id)
    data = wire.note_data(note)
    notes.delete_note(document, note, current_credential.actor(), current_credential.is_admin)
    return ok(data)

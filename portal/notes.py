"""The Notes panel of a document's page: its notes, newest first, a form to write one (htmx
swaps the panel; without JavaScript the form posts and the page comes back) and a Delete
button on the notes the signed-in person may delete (their own; an admin's, all). The same
service as the API: services/notes."""

from __future__ import annotations

from typing import Any

from flask import flash, redirect, render_template, request, url_for
from flask_login import current_user
from pydantic import ValidationError

from models import Document, DocumentStatus
from models.notes import MAX_NOTE_CHARS, Note
from portal.access import (
    TENANT_ROLES,
    is_admin,
    is_htmx,
    portal_actor,
    portal_tenant,
    roles_required,
)
from portal.blueprint import bp
from services.accounts.roles import ROLE_SCOPES
from services.core.messages import pydantic_message
from services.core.transaction import transactional
from services.notes import notes
from services.notes.wire import NoteCreate

PAGE_SIZE = 20
# Who may write notes: the roles whose API tokens may write documents (admins and members).
WRITERS = tuple(role for role, scopes in ROLE_SCOPES.items() if "documents:write" in scopes)


def notes_panel(
    document: Document, before: str | None = None, error: str | None = None, draft: str = ""
) -> dict[str, Any]:
    """What templates/portal/notes/_panel.html shows: a page of notes (older ones after
    `before`), whether the person may write one, and which they may delete."""
    rows, more = notes.list_notes(document, PAGE_SIZE, [before] if before else None)
    actor = portal_actor()
    writable = document.status != DocumentStatus.DELETED.value
    return {
        "document": document,
        "notes": rows,
        "older": rows[-1].id if more else None,
        "can_write": writable and current_user.role in WRITERS,
        "can_delete": lambda note: writable and notes.may_delete(note, actor, is_admin()),
        "max_chars": MAX_NOTE_CHARS,
        "error": error,
        "draft": draft,
    }


def _panel(document: Document, **kwargs: Any):
    return render_template("portal/notes/_panel.html", panel=notes_panel(document, **kwargs))


def _back(document: Document):
    return redirect(url_for("portal.document_detail", document_id=document.id, _anchor="notes"))


@bp.post("/documents/<document_id>/notes")
@roles_required(*WRITERS)
@transactional
def add_note(document_id: str):
    document = notes.document_of(portal_tenant().id, document_id)
    text = request.form.get("body", "")
    try:
        body = NoteCreate(body=text).body
    except ValidationError as invalid:
        message = " ".join(pydantic_message(e) for e in invalid.errors()).rstrip(".")
        if is_htmx():  # 200: htmx swaps no 4xx, and the panel says what was wrong
            return _panel(document, error=message, draft=text)
        flash(f"The note was not saved: {message}.", "error")
        return _back(document)
    notes.add_note(document, body, portal_actor())
    if is_htmx():
        return _panel(document)
    flash("Note added.", "success")
    return _back(document)


@bp.post("/documents/<document_id>/notes/<note_id>/delete")
@roles_required(*TENANT_ROLES)
@transactional
def delete_note(document_id: str, note_id: str):
    document = notes.document_of(portal_tenant().id, document_id)
    note: Note = notes.get_note(document, note_id)
    notes.delete_note(document, note, portal_actor(), is_admin())
    if is_htmx():
        return _panel(document)
    flash("Note deleted.", "success")
    return _back(document)

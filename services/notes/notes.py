"""Writing, listing and deleting a document's notes. A note is plain text by a person or an
API key; each `@email` of an active person of the document's tenant mentions them, and they
are notified (the bell and their devices). An address that is nobody here is left as text:
no answer says whether it belongs to someone of another tenant. Every change is audited,
emitted (note.created, note.deleted) and reindexes the document (search follows
`document_notes_changed`). A trashed document's notes can be read, not changed."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, select

from errors import DomainError, conflict, not_found
from extensions import db
from models import ApiKey, Document, DocumentStatus, User
from models.base import in_tenant
from models.notes import AuthorType, Note
from services.audit import audit_log
from services.core import events, signals
from services.core.actors import Actor
from services.core.paging import keyset_page
from services.notes.wire import note_data
from services.notifications.notifications import Message, notify

MENTION_TYPE = "note.mention"
# `@` + an address, not inside a word or another address (`a@b@c` mentions nobody).
_MENTION = re.compile(r"(?<![\w@.%+-])@([\w.%+-]+@[\w-]+(?:\.[\w-]+)*)")
# The distinct addresses a note is read for: a note of 10,000 characters of `@a@b` looks up
# these many, and notifies at most these many people.
MAX_MENTIONS = 50
_EXCERPT_CHARS = 500


def mentioned_addresses(body: str) -> list[str]:
    """The distinct `@email` addresses of a body, lower-cased, in order, at most MAX_MENTIONS."""
    found: list[str] = []
    for match in _MENTION.finditer(body):
        address = match.group(1).lower()
        if address not in found:
            found.append(address)
            if len(found) == MAX_MENTIONS:
                break
    return found


def _mentioned_users(tenant_id: str, body: str) -> list[User]:
    """The tenant's active people the body mentions, in the order of their first mention."""
    addresses = mentioned_addresses(body)
    if not addresses:
        return []
    users = db.session.scalars(
        select(User).where(
            User.tenant_id == tenant_id,
            func.lower(User.email).in_(addresses),
            User.is_active_user.is_(True),
        )
    )
    by_address = {user.email.lower(): user for user in users}
    return [by_address[a] for a in addresses if a in by_address]


def _author(tenant_id: str, actor: Actor) -> dict[str, Any]:
    """The note's author columns: a person (their e-mail and name) or an API key (its name)."""
    if actor.type == "user" and actor.id:
        user = User.get_for_tenant(actor.id, tenant_id)
        return {
            "author_type": AuthorType.USER.value,
            "author_id": user.id,
            "author_email": user.email,
            "author_name": user.name,
        }
    if actor.type == "key" and actor.id:
        key = ApiKey.get_for_tenant(actor.id, tenant_id)
        return {
            "author_type": AuthorType.API_KEY.value,
            "author_id": key.id,
            "author_email": None,
            "author_name": key.name,
        }
    raise DomainError(403, "FORBIDDEN", "Notes are written by a person or an API key.")


def document_of(tenant_id: str, document_id: str) -> Document:
    """The tenant's document the notes are on, trashed or not; else 404."""
    return Document.get_for_tenant(document_id, tenant_id)


def _require_not_trashed(document: Document) -> None:
    if document.status == DocumentStatus.DELETED.value:
        raise conflict("This document is in the trash; restore it (status active) first.")


def add_note(document: Document, body: str, actor: Actor) -> Note:
    """Write a note on `document` and notify the people it mentions (never its author)."""
    _require_not_trashed(document)
    mentioned = _mentioned_users(document.tenant_id, body)
    note = Note(
        tenant_id=document.tenant_id,
        document_id=document.id,
        body=body,
        mentions=[user.id for user in mentioned],
        **_author(document.tenant_id, actor),
    )
    db.session.add(note)
    db.session.flush()
    audit_log.record(
        document.tenant_id,
        actor,
        "note.created",
        target_type="note",
        target_id=note.id,
        details={"documentId": document.id, "mentions": note.mentions},
    )
    events.emit(document.tenant_id, "note.created", {"note": note_data(note)})
    signals.document_notes_changed.send(document)
    for user in mentioned:
        if user.id != note.author_id:
            notify(document.tenant_id, user.id, _mention(document, note), f"note:{note.id}")
    return note


def _mention(document: Document, note: Note) -> Message:
    who = note.author_name or note.author_email or note.author_id
    body = note.body if len(note.body) <= _EXCERPT_CHARS else note.body[:_EXCERPT_CHARS] + "…"
    return Message(
        MENTION_TYPE,
        f"{who} mentioned you on “{document.title}”",
        body,
        {"documentId": document.id, "noteId": note.id},
    )


def get_note(document: Document, note_id: str) -> Note:
    """The note of this document; another document's or another tenant's id is a 404."""
    note = Note.get_for_tenant(note_id, document.tenant_id)
    if note.document_id != document.id:
        raise not_found(Note.__not_found_label__)
    return note


def may_delete(note: Note, actor: Actor, is_admin: bool) -> bool:
    """Its author (the same person or API key) or an admin of the tenant."""
    return is_admin or (actor.type in ("user", "key") and actor.id == note.author_id)


def delete_note(document: Document, note: Note, actor: Actor, is_admin: bool) -> None:
    if not may_delete(note, actor, is_admin):
        raise DomainError(403, "FORBIDDEN", "Only the note's author or an admin can delete it.")
    _require_not_trashed(document)
    data = note_data(note)
    db.session.delete(note)
    db.session.flush()
    audit_log.record(
        document.tenant_id,
        actor,
        "note.deleted",
        target_type="note",
        target_id=note.id,
        details={"documentId": document.id, "author": data["author"]["id"]},
    )
    events.emit(document.tenant_id, "note.deleted", {"note": data})
    signals.document_notes_changed.send(document)


def list_notes(
    document: Document, limit: int, position: Sequence[Any] | None
) -> tuple[list[Note], bool]:
    """The document's notes, newest first, a page at a time (keyset on the time-ordered id)."""
    stmt = select(Note).where(Note.document_id == document.id, in_tenant(Note, document.tenant_id))
    return keyset_page(stmt, [(Note.id, True)], limit, position)

"""A note as it goes over the wire, both ways (CONTRACT §10; camelCase): the body a note is
written with, the list's query, and the note answered and carried by the note.created and
note.deleted events."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic.alias_generators import to_camel

from models.notes import MAX_NOTE_CHARS, Note
from services.core.wire import PageQuery, Timestamp, Wire

# --- requests ----------------------------------------------------------------------------------


class NoteCreate(BaseModel):
    """POST /documents/{id}/notes."""

    model_config = ConfigDict(extra="forbid", alias_generator=to_camel, populate_by_name=True)

    body: str = Field(
        min_length=1,
        max_length=MAX_NOTE_CHARS,
        description="Plain text, at most 10,000 characters. `@email` of a person of the "
        "tenant mentions them: they are notified (notification type note.mention).",
    )

    @field_validator("body", mode="after")
    @classmethod
    def _plain_text(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("a note needs some text")
        if "\x00" in value:  # no database stores it in text, and no reader wants it
            raise ValueError("a note may not contain NUL characters")
        return value


class NoteListQuery(PageQuery):
    """GET /documents/{id}/notes: newest first."""


# --- responses ---------------------------------------------------------------------------------


class NoteAuthorOut(Wire):
    type: Literal["user", "api_key"] = Field(description="A person, or an API key.")
    id: str = Field(description="usr_… or key_….")
    email: str | None = Field(description="The person's e-mail address; null for an API key.")
    name: str | None = Field(description="The person's name, or the key's.")


class NoteOut(Wire):
    id: str
    document_id: str
    body: str
    author: NoteAuthorOut
    mentions: list[str] = Field(description="The ids (usr_…) of the people the body mentions.")
    created_at: Timestamp


def notes_data(rows: Sequence[Note]) -> list[dict[str, Any]]:
    return [
        NoteOut.model_validate(
            {
                "id": n.id,
                "document_id": n.document_id,
                "body": n.body,
                "author": {
                    "type": n.author_type,
                    "id": n.author_id,
                    "email": n.author_email,
                    "name": n.author_name,
                },
                "mentions": list(n.mentions or []),
                "created_at": n.created_at,
            }
        ).model_dump(mode="json", by_alias=True)
        for n in rows
    ]


def note_data(note: Note) -> dict[str, Any]:
    return notes_data([note])[0]

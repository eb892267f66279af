"""Request models of the copilot resource; the responses are services/copilot/wire.py's."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints
from pydantic.alias_generators import to_camel

from api.pagination import PageQuery

MAX_QUESTION_CHARS = 2000
MAX_DOCUMENT_IDS = 50

Question = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_QUESTION_CHARS)
]
DocumentId = Annotated[str, StringConstraints(min_length=1, max_length=40)]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", alias_generator=to_camel, populate_by_name=True)


class MessageCreate(_Body):
    """POST /copilot/conversations and POST /copilot/conversations/{id}/messages."""

    message: Question = Field(description="The question (at most 2,000 characters).")
    document_ids: list[DocumentId] | None = Field(
        None,
        max_length=MAX_DOCUMENT_IDS,
        description="Answer only from these documents (at most 50; any not the tenant's and "
        "live is a 404). A follow-up without it keeps the conversation's.",
    )


class ConversationListQuery(PageQuery):
    """GET /copilot/conversations: the caller's own, newest first."""

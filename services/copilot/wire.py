"""A conversation as it goes over the wire, both ways (CONTRACT §9): the question asked and
the list's query; the conversation answered, its messages, each answer's citations, and which
generator wrote it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints
from pydantic.alias_generators import to_camel

from models import Conversation, Message
from services.core.wire import PageQuery, Timestamp, Wire

# --- requests ----------------------------------------------------------------------------------


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


# --- responses ---------------------------------------------------------------------------------


class CitationOut(Wire):
    document_id: str
    title: str
    snippet: str = Field(description="The quoted text of the passage (at most 300 characters).")
    passage_id: str = Field(description="The passage cited (psg_…; docs/search.md).")
    start: int = Field(description="Where the passage starts in the document's text.")
    end: int = Field(description="Where it ends (code points, exclusive).")


class MessageOut(Wire):
    id: str
    role: Literal["user", "assistant"]
    content: str
    citations: list[CitationOut]
    generator: Literal["extractive", "llm"] | None = Field(
        description="What wrote an answer; null on questions."
    )
    generator_error: str | None = Field(
        description="Why the configured LLM was not used for this answer (it fell back)."
    )
    created_at: Timestamp


class ConversationOut(Wire):
    id: str
    title: str
    document_ids: list[str] = Field(description="Retrieval is restricted to these (or all).")
    created_at: Timestamp
    updated_at: Timestamp
    messages: list[MessageOut]


class ConversationSummaryOut(Wire):
    id: str
    title: str
    document_ids: list[str]
    message_count: int
    created_at: Timestamp
    updated_at: Timestamp


def message_data(message: Message) -> dict[str, Any]:
    return MessageOut.model_validate(message).model_dump(mode="json", by_alias=True)


def conversation_data(conversation: Conversation, messages: Sequence[Message]) -> dict[str, Any]:
    return ConversationOut.model_validate(
        {
            "id": conversation.id,
            "title": conversation.title,
            "document_ids": conversation.document_ids,
            "created_at": conversation.created_at,
            "updated_at": conversation.updated_at,
            "messages": [MessageOut.model_validate(m) for m in messages],
        }
    ).model_dump(mode="json", by_alias=True)


def summaries_data(rows: Sequence[Conversation]) -> list[dict[str, Any]]:
    return [
        ConversationSummaryOut.model_validate(c).model_dump(mode="json", by_alias=True)
        for c in rows
    ]

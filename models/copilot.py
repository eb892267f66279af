"""The copilot: conversations (`cnv_…`) of questions and answers with their citations, owned
by the person or the API key that started them, and each tenant's monthly message count
(services/copilot/, docs/copilot.md)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from extensions import db
from models.base import TenantScoped, UTCDateTime, created_at_column, id_column


class Conversation(TenantScoped, db.Model):
    __tablename__ = "copilot_conversations"
    __not_found_label__ = "Conversation"
    __table_args__ = (Index("ix_copilot_conversations_owner", "tenant_id", "owner_id", "id"),)

    id: Mapped[str] = id_column("cnv")
    # "user" (a person's token or portal session) or "key" (an API key), and its id.
    owner_type: Mapped[str] = mapped_column(String(10), nullable=False)
    owner_id: Mapped[str] = mapped_column(String(60), nullable=False)
    title: Mapped[str] = mapped_column(String(200), nullable=False)
    # The documents retrieval is restricted to (empty: all the tenant's live documents).
    document_ids: Mapped[list[str]] = mapped_column(JSON, nullable=False, default=list)
    message_count: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = created_at_column()


class Message(TenantScoped, db.Model):
    __tablename__ = "copilot_messages"
    __not_found_label__ = "Message"
    __table_args__ = (UniqueConstraint("conversation_id", "position"),)

    id: Mapped[str] = id_column("msg")
    conversation_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("copilot_conversations.id", ondelete="CASCADE"), nullable=False
    )
    # 0, 1, 2, … in the conversation: a question, then its answer.
    position: Mapped[int] = mapped_column(Integer, nullable=False)
    role: Mapped[str] = mapped_column(String(10), nullable=False)  # "user" | "assistant"
    content: Mapped[str] = mapped_column(Text, nullable=False)
    # [{"documentId", "title", "snippet", "passageId", "start", "end"}] of an answer.
    citations: Mapped[list[dict[str, Any]]] = mapped_column(JSON, nullable=False, default=list)
    # Which generator wrote the answer, and why the configured one was not used (fallback).
    generator: Mapped[str | None] = mapped_column(String(20))
    generator_error: Mapped[str | None] = mapped_column(String(300))
    created_at: Mapped[datetime] = created_at_column()


class CopilotUsage(db.Model):
    """Questions asked per tenant and calendar month (UTC), counted before answering."""

    __tablename__ = "copilot_usage"

    tenant_id: Mapped[str] = mapped_column(
        String(63), ForeignKey("tenants.id", ondelete="CASCADE"), primary_key=True
    )
    month: Mapped[str] = mapped_column(String(7), primary_key=True)  # "2026-11"
    messages: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    updated_at: Mapped[datetime | None] = mapped_column(UTCDateTime())

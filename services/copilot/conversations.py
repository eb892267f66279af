"""Conversations: asking (the first question or a follow-up), reading and listing them.

A conversation belongs to the person (`user`) or the API key (`key`) that started it; only
its owner lists and reads it through the API (anyone else gets 404), and the tenant's admins
read every conversation in the portal. `ask` commits the quota claim on its own first (like
the Idempotency-Key claim), so no lock is held while it answers; the question and the answer
are then flushed, for the caller's boundary to commit, or the claim is given back in a unit
of work of its own (docs/copilot.md)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, update

import clock
from errors import conflict, not_found
from extensions import db
from models import Conversation, Message, Tenant
from models.base import in_tenant
from services.copilot import generators, quota, retrieval
from services.copilot.retrieval import Context
from services.core import transaction
from services.core.actors import Actor

log = logging.getLogger(__name__)

MAX_MESSAGES = 200  # questions and answers in one conversation
TITLE_CHARS = 80
RETRIEVED_PASSAGES = 5
CONTEXT_QUESTIONS = 2  # earlier questions a follow-up takes its context from


@dataclass
class Exchange:
    conversation: Conversation
    question: Message
    answer: Message


def _owned(stmt, tenant_id: str, actor: Actor):
    return stmt.where(
        Conversation.tenant_id == tenant_id,
        Conversation.owner_type == actor.type,
        Conversation.owner_id == actor.ref,
    )


def get_conversation(tenant_id: str, actor: Actor, conversation_id: str) -> Conversation:
    """The caller's own conversation, else 404 (another owner's or tenant's alike)."""
    row = db.session.scalar(
        _owned(select(Conversation), tenant_id, actor).where(Conversation.id == conversation_id)
    )
    if row is None:
        raise not_found("Conversation")
    return row


def get_any(tenant_id: str, conversation_id: str) -> Conversation:
    """Any conversation of the tenant (the portal, for its admins)."""
    return Conversation.get_for_tenant(conversation_id, tenant_id)


def list_conversations(
    tenant_id: str, actor: Actor | None, limit: int, position: Sequence[Any] | None
) -> tuple[list[Conversation], bool]:
    """The caller's conversations (every one of the tenant when `actor` is None), newest
    first, a keyset page by id."""
    stmt = select(Conversation).where(Conversation.tenant_id == tenant_id)
    if actor is not None:
        stmt = _owned(stmt, tenant_id, actor)
    if position is not None:
        stmt = stmt.where(Conversation.id < position[0])
    rows = list(db.session.scalars(stmt.order_by(Conversation.id.desc()).limit(limit + 1)))
    return rows[:limit], len(rows) > limit


def messages_of(conversation: Conversation) -> list[Message]:
    return list(
        db.session.scalars(
            select(Message)
            .where(
                Message.conversation_id == conversation.id,
                in_tenant(Message, conversation.tenant_id),
            )
            .order_by(Message.position)
        )
    )


def _context(conversation: Conversation | None) -> Context | None:
    if conversation is None:
        return None
    earlier = messages_of(conversation)
    questions = [m.content for m in earlier if m.role == "user"][-CONTEXT_QUESTIONS:]
    answers = [m for m in earlier if m.role == "assistant"]
    cited = [c["document_id"] for c in answers[-1].citations] if answers else []
    return Context(" ".join(questions), tuple(dict.fromkeys(cited)))


def ask(
    tenant_id: str,
    actor: Actor,
    question: str,
    document_ids: Sequence[str] | None = None,
    conversation: Conversation | None = None,
) -> Exchange:
    """Answer `question` (a first one, or a follow-up in `conversation`) and store both
    (flushed: the caller commits).

    Checks first (the plan, the documents: 404 for any not the tenant's and live, a full
    conversation: 409), then claims the month's quota (429) and commits the claim; a failure
    after it gives the claim back."""
    tenant = db.session.get(Tenant, tenant_id)
    if tenant is None:
        raise not_found("Tenant")
    quota.require_plan(tenant)
    if document_ids:
        restricted = retrieval.check_documents(tenant.id, document_ids)
    elif conversation is not None and conversation.document_ids:
        # Documents trashed since drop out of the restriction (none left: nothing found).
        live = set(retrieval.live_documents(tenant.id, set(conversation.document_ids)))
        # ["-"] matches no document, where [] would mean "all of them".
        restricted = [d for d in conversation.document_ids if d in live] or ["-"]
    else:
        restricted = []
    if conversation is not None and conversation.message_count + 2 > MAX_MESSAGES:
        raise conflict(f"A conversation holds at most {MAX_MESSAGES} messages; start another.")
    month = quota.month_of(clock.now())
    quota.claim(tenant)
    transaction.commit()  # the claim stands alone: no lock is held while the answer is written
    try:
        context = _context(conversation)
        found = retrieval.retrieve(tenant.id, question, restricted, RETRIEVED_PASSAGES, context)
        weights = retrieval.question_weights(question, context)
        answer = generators.generate(question, weights, found)
        exchange = _store(tenant.id, actor, question, restricted, conversation, answer)
    except BaseException:
        db.session.rollback()
        quota.refund(tenant.id, month)
        transaction.commit()  # the refund stands though the request fails and rolls back
        raise
    log.info(
        "copilot answered",
        extra={
            "conversation_id": exchange.conversation.id,
            "generator": answer.generator,
            "generator_error": answer.error,
            "citations": len(answer.citations),
        },
    )
    return exchange


def _store(tenant_id, actor, question, restricted, conversation, answer) -> Exchange:
    now = clock.now()
    if conversation is None:
        title = " ".join(question.split())
        conversation = Conversation(
            tenant_id=tenant_id,
            owner_type=actor.type,
            owner_id=actor.ref,
            title=title if len(title) <= TITLE_CHARS else title[: TITLE_CHARS - 1] + "…",
            document_ids=list(restricted),
            message_count=2,
            created_at=now,
            updated_at=now,
        )
        db.session.add(conversation)
        db.session.flush()
        base = 0
    else:
        base = conversation.message_count
        # Two follow-ups at once: the second finds the count moved and is refused (409).
        moved = db.session.execute(
            update(Conversation)
            .where(Conversation.id == conversation.id, Conversation.message_count == base)
            .values(message_count=base + 2, updated_at=now)
            .execution_options(synchronize_session=False)
        ).rowcount
        if moved != 1:
            raise conflict("Another question in this conversation is being answered.")
        db.session.refresh(conversation)
    asked = Message(
        tenant_id=tenant_id,
        conversation_id=conversation.id,
        position=base,
        role="user",
        content=question,
        citations=[],
        created_at=now,
    )
    answered = Message(
        tenant_id=tenant_id,
        conversation_id=conversation.id,
        position=base + 1,
        role="assistant",
        content=answer.content,
        citations=answer.citations,
        generator=answer.generator,
        generator_error=answer.error[:300] if answer.error else None,
        created_at=now,
    )
    db.session.add_all([asked, answered])
    db.session.flush()
    return Exchange(conversation, asked, answered)

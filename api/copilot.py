"""Copilot resource (CONTRACT §4, §9): ask a question (a new conversation, or a follow-up),
read one's own conversations. Answers as JSON, or as server-sent events when the request
accepts `text/event-stream`. Routes only: services/copilot works (docs/copilot.md)."""

from __future__ import annotations

from flask import Response, request, stream_with_context, url_for

from api.auth import current_credential, require_scope
from api.blueprint import bp
from api.envelope import ok, ok_list
from api.pagination import id_position
from api.validation import json_body, query_args, responds
from services.copilot import conversations, quota, streaming, wire
from services.copilot.wire import (
    ConversationListQuery,
    ConversationOut,
    ConversationSummaryOut,
    MessageCreate,
)
from services.core.cursors import binding_of, encode_cursor
from services.core.transaction import transactional
from tenancy import current_tenant


def _wants_stream() -> bool:
    best = request.accept_mimetypes.best_match(["application/json", "text/event-stream"])
    return best == "text/event-stream"


def _answer(exchange: conversations.Exchange, status: int, location: str | None = None):
    messages = conversations.messages_of(exchange.conversation)
    data = wire.conversation_data(exchange.conversation, messages)
    if _wants_stream():
        events = streaming.events(exchange.answer.content, data, wire.message_data(exchange.answer))
        response = Response(stream_with_context(events), status=200, mimetype="text/event-stream")
        response.headers["Cache-Control"] = "no-cache"
        response.headers["X-Accel-Buffering"] = "no"
        return response
    headers = {"Location": location} if location else None
    return ok(data, status=status, headers=headers)


@bp.post("/copilot/conversations")
@require_scope("copilot:use")
@transactional
@json_body(MessageCreate)
@responds(ConversationOut, status=201)
def create_conversation(body: MessageCreate):
    """Ask a first question: 201 with the conversation holding the question and the answer
    with its citations. With `Accept: text/event-stream` the answer streams as server-sent
    events (`delta` events, then `message` with the stored answer and the conversation).
    Business and Enterprise plans (403 PLAN_UPGRADE_REQUIRED); each question counts against
    the tenant's monthly quota (429 COPILOT_QUOTA_EXCEEDED)."""
    exchange = conversations.ask(
        current_tenant.id,
        current_credential.actor(),
        body.message,
        body.document_ids,
    )
    location = url_for("api.get_conversation", conversation_id=exchange.conversation.id)
    return _answer(exchange, 201, location)


@bp.post("/copilot/conversations/<conversation_id>/messages")
@require_scope("copilot:use")
@transactional
@json_body(MessageCreate)
@responds(ConversationOut, status=201)
def create_conversation_message(conversation_id: str, body: MessageCreate):
    """Ask a follow-up in one's own conversation: its earlier questions and cited documents
    inform retrieval. 201 with the whole conversation (or server-sent events, as above)."""
    quota.require_plan(current_tenant)
    actor = current_credential.actor()
    conversation = conversations.get_conversation(current_tenant.id, actor, conversation_id)
    exchange = conversations.ask(
        current_tenant.id, actor, body.message, body.document_ids, conversation
    )
    return _answer(exchange, 201)


@bp.get("/copilot/conversations")
@require_scope("copilot:use")
@query_args(ConversationListQuery)
@responds(ConversationSummaryOut, many=True)
def list_conversations(query: ConversationListQuery):
    """The caller's own conversations, newest first (without their messages)."""
    quota.require_plan(current_tenant)
    actor = current_credential.actor()
    binding = binding_of(current_tenant.id, resource="conversations", owner=actor.ref)
    rows, more = conversations.list_conversations(
        current_tenant.id, actor, query.limit, id_position(query.cursor, binding)
    )
    next_cursor = encode_cursor(binding, [rows[-1].id]) if more else None
    return ok_list(wire.summaries_data(rows), limit=query.limit, next_cursor=next_cursor)


@bp.get("/copilot/conversations/<conversation_id>")
@require_scope("copilot:use")
@responds(ConversationOut)
def get_conversation(conversation_id: str):
    """One of the caller's conversations with every message (another's is a 404)."""
    quota.require_plan(current_tenant)
    conversation = conversations.get_conversation(
        current_tenant.id, current_credential.actor(), conversation_id
    )
    return ok(wire.conversation_data(conversation, conversations.messages_of(conversation)))

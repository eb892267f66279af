"""The copilot in the portal: the "Ask" page (a question, the answer with its cited passages
linking to their documents, the person's conversations; admins also read everyone's), and the
dashboard's copilot block (questions per month). The same services as the API
(services/copilot, docs/copilot.md)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask import abort, flash, redirect, render_template, request, url_for
from flask_login import current_user
from sqlalchemy import select

from errors import DomainError
from extensions import db
from models import Role, User
from portal.access import portal_actor, portal_tenant, roles_required
from portal.blueprint import bp
from portal.charts import bar_chart, meter
from services.copilot import conversations, quota, wire
from services.core.transaction import transactional

ASKING_ROLES = (Role.ADMIN.value, Role.MEMBER.value)  # the roles with copilot:use
LIST_SIZE = 50
USAGE_MONTHS = 12


def _names(tenant_id: str, owner_ids: list[str]) -> dict[str, str]:
    users = db.session.execute(
        select(User.id, User.email).where(User.found_in_tenant(owner_ids, tenant_id))
    ).all()
    return dict(users)


def _page(status: int = 200, conversation=None, error: str | None = None):
    tenant = portal_tenant()
    actor = portal_actor()
    allowed = tenant.plan in quota.PLANS_WITH_COPILOT
    mine, everyone = [], []
    if allowed:
        mine, _ = conversations.list_conversations(tenant.id, actor, LIST_SIZE, None)
        if current_user.role == Role.ADMIN.value:
            others, _ = conversations.list_conversations(tenant.id, None, LIST_SIZE, None)
            everyone = [c for c in others if c.owner_id != actor.ref]
    shown = None
    if conversation is not None:
        shown = wire.conversation_data(conversation, conversations.messages_of(conversation))
    return (
        render_template(
            "portal/copilot/ask.html",
            allowed=allowed,
            mine=mine,
            everyone=everyone,
            owners=_names(tenant.id, [c.owner_id for c in everyone]),
            conversation=shown,
            own=conversation is None or conversation.owner_id == actor.ref,
            error=error,
            question=request.form.get("message", "") if error else "",
        ),
        status,
    )


@bp.get("/ask")
@roles_required(*ASKING_ROLES)
def ask_page():
    return _page()


@bp.get("/ask/<conversation_id>")
@roles_required(*ASKING_ROLES)
def conversation_page(conversation_id: str):
    tenant = portal_tenant()
    if tenant.plan not in quota.PLANS_WITH_COPILOT:
        abort(404)
    if current_user.role == Role.ADMIN.value:
        conversation = conversations.get_any(tenant.id, conversation_id)
    else:
        conversation = conversations.get_conversation(tenant.id, portal_actor(), conversation_id)
    return _page(conversation=conversation)


def _document_ids(raw: str) -> list[str] | None:
    ids = [part for part in raw.replace(",", " ").split() if part]
    return ids[:50] or None


@bp.post("/ask")
@roles_required(*ASKING_ROLES)
def ask_question():
    return _ask(None)


@bp.post("/ask/<conversation_id>")
@roles_required(*ASKING_ROLES)
def ask_follow_up(conversation_id: str):
    return _ask(conversation_id)


@transactional
def _ask(conversation_id: str | None):
    tenant, actor = portal_tenant(), portal_actor()
    question = (request.form.get("message") or "").strip()
    conversation = None
    try:
        if conversation_id is not None:
            conversation = conversations.get_conversation(tenant.id, actor, conversation_id)
        if not question or len(question) > wire.MAX_QUESTION_CHARS:
            message = f"Ask a question of 1 to {wire.MAX_QUESTION_CHARS:,} characters."
            raise DomainError(422, "VALIDATION_ERROR", message)
        exchange = conversations.ask(
            tenant.id,
            actor,
            question,
            _document_ids(request.form.get("document_ids") or ""),
            conversation,
        )
    except DomainError as error:
        if error.status == 404 and conversation is None and conversation_id is not None:
            raise
        return _page(error.status, conversation, error.errors[0].message)
    flash("Answered.", "success")
    return redirect(url_for("portal.conversation_page", conversation_id=exchange.conversation.id))


def usage_block(tenant) -> dict[str, Any] | None:
    """The dashboard's copilot block: questions per month against this month's limit (None
    on plans without the copilot)."""
    if tenant.plan not in quota.PLANS_WITH_COPILOT:
        return None
    limit = quota.monthly_limit(tenant)
    months = quota.usage_by_month(tenant.id, USAGE_MONTHS)
    this_month = quota.month_of_now()
    used = dict(months).get(this_month, 0)
    series = [(datetime.strptime(m, "%Y-%m").replace(tzinfo=UTC), n) for m, n in months]
    chart = None
    if series:
        label = f"limit {limit:,}/month"
        chart = bar_chart(series, guide=limit, guide_label=label, time_format="%Y-%m")
    return {
        "limit": limit,
        "used": used,
        "meter": meter(used, limit),
        "months": months,
        "chart": chart,
    }

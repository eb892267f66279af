"""Approvals in the portal: the inbox of what waits for the signed-in person, recent
decisions, an instance's page, and approving, rejecting or cancelling."""

from __future__ import annotations

from typing import Any

from flask import flash, redirect, render_template, request, url_for
from flask_login import current_user
from sqlalchemy import func, select

from errors import DomainError
from extensions import db
from models import (
    Document,
    DocumentText,
    Form,
    FormSubmission,
    Role,
    User,
    WorkflowInstance,
)
from models.base import in_tenant
from portal.access import TENANT_ROLES, is_htmx, portal_actor, roles_required
from portal.blueprint import bp
from services.core.transaction import transactional
from services.workflows import approvers, definitions, instances, queries, wire

INBOX_SIZE = 50
RECENT_SIZE = 50
PREVIEW_CHARS = 400


def subjects(tenant_id: str, rows: list[WorkflowInstance]) -> dict[str, dict[str, Any]]:
    """A title and a preview of each instance's subject, in a few queries: a document's title
    and the start of its text; a form submission's form name and its answers."""
    doc_ids = [r.subject_id for r in rows if r.subject_type == "document"]
    sub_ids = [r.subject_id for r in rows if r.subject_type == "formSubmission"]
    found: dict[str, dict[str, Any]] = {}
    if doc_ids:
        titles = dict(
            db.session.execute(
                select(Document.id, Document.title).where(
                    Document.found_in_tenant(doc_ids, tenant_id)
                )
            ).all()
        )
        texts = dict(
            db.session.execute(
                # Only the preview's worth of each text: a text may hold millions of characters.
                select(
                    DocumentText.document_id, func.substr(DocumentText.text, 1, PREVIEW_CHARS)
                ).where(DocumentText.document_id.in_(doc_ids), in_tenant(DocumentText, tenant_id))
            ).all()
        )
        for doc_id in doc_ids:
            found[doc_id] = {
                "title": titles.get(doc_id, doc_id),
                "preview": texts.get(doc_id) or "",
            }
    if sub_ids:
        for submission, form_name in db.session.execute(
            select(FormSubmission, Form.name)
            .join(Form, Form.id == FormSubmission.form_id)
            .where(FormSubmission.found_in_tenant(sub_ids, tenant_id))
        ).all():
            answers = "\n".join(f"{k}: {v}" for k, v in submission.data.items())
            found[submission.id] = {
                "title": f"{form_name}: submission {submission.id}",
                "preview": answers[:PREVIEW_CHARS],
            }
    return found


@bp.get("/approvals")
@roles_required(*TENANT_ROLES)
def approvals_page():
    tenant_id = current_user.tenant_id
    waiting, _ = queries.list_instances(
        tenant_id, queries.InstanceFilters(approver_id=current_user.id), INBOX_SIZE, None
    )
    definition = None
    if request.args.get("definition"):  # "see running instances" of one definition
        definition = definitions.get_definition(tenant_id, request.args["definition"])
    started, _ = queries.list_instances(
        tenant_id,
        queries.InstanceFilters(definition_id=definition.id if definition else None),
        RECENT_SIZE,
        None,
    )
    rows = [*waiting, *started]
    return render_template(
        "portal/workflows/approvals.html",
        waiting=wire.instances_data(waiting),
        recent=wire.instances_data(started),
        subjects=subjects(tenant_id, rows),
        definition=definition,
    )


def _instance(instance_id: str) -> WorkflowInstance:
    return instances.get_instance(current_user.tenant_id, instance_id)


def _render_instance(
    instance: WorkflowInstance, status: int = 200, notice: tuple[str, str] | None = None
):
    data = wire.instance_data(instance)
    me = current_user.id
    return render_template(
        "portal/workflows/instance.html",
        instance=data,
        subject=subjects(instance.tenant_id, [instance]).get(instance.subject_id),
        can_act=me in approvers.compute(instance),
        can_cancel=instance.state in ("pending", "in_progress")
        and (current_user.role == Role.ADMIN.value or instance.started_by == me),
        steps=instance.steps,
        names=_names(instance),
        notice=notice,
    ), status


def _names(instance: WorkflowInstance) -> dict[str, str]:
    """E-mail addresses of the users the steps name by id (the steps show people, not ids)."""
    ids = {
        ref["user"]
        for step in instance.steps
        for ref in [*step["approvers"], step.get("escalateTo") or {}]
        if "user" in ref
    }
    if not ids:
        return {}
    rows = db.session.execute(
        select(User.id, User.email).where(User.id.in_(ids), User.tenant_id == instance.tenant_id)
    )
    return dict(rows.all())


@bp.get("/approvals/<instance_id>")
@roles_required(*TENANT_ROLES)
def approval_detail(instance_id: str):
    return _render_instance(_instance(instance_id))


@bp.post("/approvals/<instance_id>/<any(approve, reject, cancel):action>")
@roles_required(*TENANT_ROLES)
def act_on_approval(instance_id: str, action: str):
    comment = (request.form.get("comment") or "").strip()[:2000] or None
    try:
        instance = _act(instance_id, action, comment)
    except DomainError as error:
        if error.status == 404:
            raise
        # htmx swaps in the answer whatever its status; a plain form shows it as the page.
        notice = (error.errors[0].message, "error")
        return _render_instance(_instance(instance_id), 200 if is_htmx() else error.status, notice)
    done = {"approve": "Approved.", "reject": "Rejected.", "cancel": "Cancelled."}[action]
    if is_htmx():
        return _render_instance(instance, notice=(done, "success"))
    flash(done, "success")
    return redirect(url_for("portal.approval_detail", instance_id=instance_id))


@transactional
def _act(instance_id: str, action: str, comment: str | None) -> WorkflowInstance:
    instance = _instance(instance_id)
    if action == "cancel":
        instances.cancel(instance, portal_actor(), current_user.role == Role.ADMIN.value, comment)
    else:
        user = User.get_for_tenant(current_user.id, instance.tenant_id)
        getattr(instances, action)(instance, user, comment)
    return instance

"""Workflows in the portal: definitions for admins (the list with how many instances of each
are running, creating or editing one in a form of steps (add, remove, reorder; approvers
picked from people, e-mails or roles) with the JSON as an advanced view, validated by the API's
own request model in services/workflows/wire.py and by the service, each error in our words
beside its field; auditors read), and approvals (the inbox of what waits
for the signed-in person with the document's title and a preview of its text, an instance's
page with its history as a timeline, approve / reject with a comment (htmx; plain forms
without JavaScript) or cancel by the starter or an admin). The same services as the API
(services/workflows)."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from flask import flash, redirect, render_template, request, url_for
from flask_login import current_user
from pydantic import ValidationError
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
    WorkflowDefinition,
    WorkflowInstance,
)
from models.base import in_tenant
from models.workflows import OPEN_STATES
from portal.access import ADMIN, TENANT_ROLES, is_htmx, portal_actor, roles_required
from portal.blueprint import bp
from services.core.messages import pydantic_message
from services.core.transaction import transactional
from services.workflows import approvers, definitions, instances, queries, wire

READERS = ("admin", "auditor")
EXAMPLE_STEPS = [
    {"name": "Manager", "mode": "any", "approvers": [{"role": "admin"}]},
    {
        "name": "Finance",
        "mode": "all",
        "approvers": [{"email": "finance@example.com"}],
        "dueInHours": 48,
        "escalateTo": {"role": "admin"},
    },
]


def _running(tenant_id: str) -> dict[str, int]:
    rows = db.session.execute(
        select(WorkflowInstance.definition_id, func.count())
        .where(WorkflowInstance.tenant_id == tenant_id, WorkflowInstance.state.in_(OPEN_STATES))
        .group_by(WorkflowInstance.definition_id)
    )
    return dict(rows.all())


@bp.get("/workflows")
@roles_required(*READERS)
def workflow_definitions_page():
    tenant_id = current_user.tenant_id
    rows = db.session.scalars(
        WorkflowDefinition.query_for_tenant(tenant_id).order_by(WorkflowDefinition.name)
    ).all()
    return render_template("portal/workflows/index.html", rows=rows, running=_running(tenant_id))


APPROVER_ROLES = ("admin", "member", "auditor")
PEOPLE_LIMIT = 500  # the pickers list this many people; more are named by e-mail
STEP_FIELDS = {"name", "mode", "approvers", "dueInHours", "escalateTo"}


def _people(tenant_id: str) -> list[tuple[str, str]]:
    """(id, e-mail) of the tenant's active people, for the approver pickers."""
    rows = db.session.execute(
        select(User.id, User.email)
        .where(User.tenant_id == tenant_id, User.is_active_user.is_(True))
        .order_by(User.email)
        .limit(PEOPLE_LIMIT)
    )
    return [(r.id, r.email) for r in rows]


def _ref_value(ref: dict[str, str] | None) -> str:
    """An approver as a picker's option value: `role:admin`, `user:usr_…`, `email:…`."""
    if not ref:
        return ""
    kind, value = next(iter(ref.items()))
    return f"{kind}:{value}"


def _ref_of(value: str) -> dict[str, str] | None:
    kind, _, rest = (value or "").partition(":")
    if kind in ("role", "user", "email") and rest.strip():
        return {kind: rest.strip()[:254]}
    return None


def _steps_from_form(form) -> list[dict[str, Any]]:
    """The steps as the editor's fields give them, unvalidated (re-shown as typed)."""
    try:
        count = max(0, min(int(form.get("step_count") or 0), wire.MAX_STEPS + 1))
    except ValueError:
        count = 0
    steps = []
    for i in range(count):
        field = f"steps-{i}-"
        refs = [r for v in form.getlist(field + "approvers") if (r := _ref_of(v))]
        emails = re.split(r"[\s,;]+", form.get(field + "emails") or "")
        refs += [{"email": e[:254]} for e in emails if e]
        steps.append(
            {
                "name": (form.get(field + "name") or "").strip(),
                "mode": form.get(field + "mode") or "any",
                "approvers": refs,
                "dueInHours": (form.get(field + "dueInHours") or "").strip() or None,
                "escalateTo": _ref_of(form.get(field + "escalateTo") or ""),
            }
        )
    return steps


def _editable(step: dict[str, Any]) -> dict[str, Any]:
    """One step as the editor shows it: picked approvers, typed e-mails, the rest as text."""
    refs = step.get("approvers") or []
    return {
        "name": step.get("name") or "",
        "mode": step.get("mode") or "any",
        "picked": {_ref_value(r) for r in refs if "email" not in r},
        "emails": ", ".join(r["email"] for r in refs if "email" in r),
        "due": "" if step.get("dueInHours") is None else str(step["dueInHours"]),
        "escalate": _ref_value(step.get("escalateTo")),
    }


def _field_of(loc: Sequence[Any]) -> str:
    """A validation error's location as the editor's field id (`steps-0-approvers`)."""
    if len(loc) >= 2 and isinstance(loc[0], int) and loc[1] in STEP_FIELDS:
        return f"steps-{loc[0]}-{loc[1]}"
    return "steps"


def _where(loc: Sequence[Any]) -> str:
    """A location in words for the JSON view: `Step 2, approver 1, email`."""
    words: list[str] = []
    for part in loc:
        if isinstance(part, int):
            label = "approver" if words and words[-1] == "approvers" else "step"
            if words and words[-1] == "approvers":
                words.pop()
            words.append(f"{label} {part + 1}")
        else:
            words.append(str(part))
    text = ", ".join(words)
    return text[:1].upper() + text[1:]


def _step_errors(errors: list[dict[str, Any]]) -> dict[str, list[str]]:
    grouped: dict[str, list[str]] = {}
    for error in errors:
        loc = tuple(error.get("loc") or ())
        message = pydantic_message(error)
        if len(loc) > 2 and loc[1] == "approvers" and isinstance(loc[2], int):
            message = f"Approver {loc[2] + 1}: {message}"
        grouped.setdefault(_field_of(loc), []).append(message)
    return grouped


def _form_page(definition, form: dict[str, Any], errors: dict, status=200):
    steps = form["steps"]
    return render_template(
        "portal/workflows/edit.html",
        definition=definition,
        form=form,
        steps=[_editable(step) for step in steps],
        steps_json=form.get("steps_json") or json.dumps(steps, indent=2),
        people=_people(current_user.tenant_id),
        roles=APPROVER_ROLES,
        errors=errors,
        max_steps=wire.MAX_STEPS,
    ), status


@bp.get("/workflows/new")
@roles_required(*ADMIN)
def new_workflow_definition():
    form = {"name": "", "description": "", "steps": [dict(s) for s in EXAMPLE_STEPS[:1]]}
    return _form_page(None, form, {})


@bp.get("/workflows/<definition_id>/edit")
@roles_required(*ADMIN)
def edit_workflow_definition(definition_id: str):
    definition = definitions.get_definition(current_user.tenant_id, definition_id)
    form = {
        "name": definition.name,
        "description": definition.description or "",
        "steps": [dict(step) for step in definition.steps],
    }
    return _form_page(definition, form, {})


def _rearrange(steps: list[dict[str, Any]], op: str) -> dict[str, list[str]]:
    """Apply the editor's add / remove / move buttons to `steps` in place."""
    verb, _, index = op.partition("-")
    if verb == "add":
        if len(steps) >= wire.MAX_STEPS:
            return {"steps": [f"A workflow has at most {wire.MAX_STEPS} steps."]}
        steps.append({"name": "", "mode": "any", "approvers": []})
        return {}
    if not index.isdigit() or int(index) >= len(steps):
        return {}
    i = int(index)
    if verb == "remove":
        steps.pop(i)
    elif verb == "up" and i > 0:
        steps[i - 1], steps[i] = steps[i], steps[i - 1]
    elif verb == "down" and i + 1 < len(steps):
        steps[i + 1], steps[i] = steps[i], steps[i + 1]
    return {}


@bp.post("/workflows/new")
@bp.post("/workflows/<definition_id>/edit")
@roles_required(*ADMIN)
def save_workflow_definition(definition_id: str | None = None):
    form: dict[str, Any] = {k: (request.form.get(k) or "").strip() for k in ("name", "description")}
    form["steps"] = _steps_from_form(request.form)
    definition = (
        definitions.get_definition(current_user.tenant_id, definition_id) if definition_id else None
    )
    op = request.form.get("op") or "save"
    if op == "json":  # the advanced view: its JSON replaces the form's steps, unsaved
        text = request.form.get("steps_json") or ""
        form["steps_json"] = text
        try:
            form["steps"] = wire.StepsInput.parse(text)
        except ValidationError as exc:
            messages = [f"{_where(e['loc'])}: {pydantic_message(e)}" if e["loc"]
                        else pydantic_message(e) for e in exc.errors()[:10]]  # fmt: skip
            return _form_page(definition, form, {"steps_json": messages}, 422)
        except ValueError:
            return _form_page(definition, form, {"steps_json": ["The JSON is too long."]}, 422)
        form["steps_json"] = ""
        return _form_page(definition, form, {})
    if op != "save":
        return _form_page(definition, form, _rearrange(form["steps"], op))
    errors: dict[str, list[str]] = {}
    if not form["name"]:
        errors["name"] = ["Give the workflow a name."]
    steps = None
    try:
        steps = wire.StepsInput.validate(form["steps"])
    except ValidationError as exc:
        errors.update(_step_errors(exc.errors()))
    if errors or steps is None:
        return _form_page(definition, form, errors, 422)
    try:
        saved = _save(definition_id, form, steps)
    except DomainError as error:
        grouped: dict[str, list[str]] = {}
        for e in error.errors:
            loc = [int(p) if p.isdigit() else p for p in (e.field or "").split(".")[1:]]
            message = e.message
            if len(loc) > 2 and loc[1] == "approvers":
                message = f"Approver {loc[2] + 1}: {message}"
            grouped.setdefault(_field_of(loc), []).append(message)
        return _form_page(definition, form, grouped, error.status)
    flash(f"Saved “{saved.name}” (version {saved.version}).", "success")
    return redirect(url_for("portal.workflow_definitions_page"))


@transactional
def _save(definition_id: str | None, form: dict[str, Any], steps: list[dict[str, Any]]):
    tenant_id = current_user.tenant_id
    if definition_id is None:
        return definitions.create_definition(
            tenant_id, form["name"][:200], form["description"][:2000] or None, steps, portal_actor()
        )
    definition = definitions.get_definition(tenant_id, definition_id)
    changes = {"name": form["name"][:200], "description": form["description"][:2000] or None,
               "steps": steps}  # fmt: skip
    return definitions.update_definition(definition, changes, portal_actor())


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

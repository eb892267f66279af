"""Workflow definitions in the portal: the list, and the editor (steps as a form: add, remove,
reorder, approvers picked from people, roles or e-mails; the JSON as an advanced view; each
error in words beside its field)."""

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
    User,
    WorkflowDefinition,
    WorkflowInstance,
)
from models.workflows import OPEN_STATES
from portal.access import ADMIN, portal_actor, roles_required
from portal.blueprint import bp
from services.core.messages import pydantic_message
from services.core.transaction import transactional
from services.workflows import definitions, wire

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

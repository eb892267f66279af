"""Workflow definitions in the portal, for admins: the list with how many instances of each
are running, and creating or editing one. Steps are edited as JSON in a textarea (the shape
docs/workflows.md documents), validated by the API's own request model and the service, each
error shown beside the field. Auditors read."""

from __future__ import annotations

import json
from typing import Any

from flask import flash, redirect, render_template, request, url_for
from flask_login import current_user
from pydantic import ValidationError
from sqlalchemy import func, select

from errors import DomainError
from extensions import db
from models import WorkflowDefinition, WorkflowInstance
from models.workflows import OPEN_STATES
from portal.access import ADMIN, portal_actor, roles_required
from portal.blueprint import bp
from services.core.transaction import transactional
from services.workflows import definitions
from services.workflows.steps import StepsInput

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


def _form_page(
    definition: WorkflowDefinition | None, form: dict[str, str], errors: dict, status=200
):
    return render_template(
        "portal/workflows/edit.html", definition=definition, form=form, errors=errors
    ), status


@bp.get("/workflows/new")
@roles_required(*ADMIN)
def new_workflow_definition():
    form = {"name": "", "description": "", "steps": json.dumps(EXAMPLE_STEPS, indent=2)}
    return _form_page(None, form, {})


@bp.get("/workflows/<definition_id>/edit")
@roles_required(*ADMIN)
def edit_workflow_definition(definition_id: str):
    definition = definitions.get_definition(current_user.tenant_id, definition_id)
    form = {
        "name": definition.name,
        "description": definition.description or "",
        "steps": json.dumps(definition.steps, indent=2),
    }
    return _form_page(definition, form, {})


def _parse(form: dict[str, str]) -> tuple[list[dict[str, Any]] | None, dict[str, list[str]]]:
    errors: dict[str, list[str]] = {}
    if not form["name"]:
        errors["name"] = ["Give the workflow a name."]
    try:
        steps = StepsInput.parse(form["steps"])
    except ValueError as exc:
        errors["steps"] = [str(exc)]
        return None, errors
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        errors["steps"] = [f"{where}: {first['msg']}" if where else first["msg"]]
        return None, errors
    return steps, errors


@bp.post("/workflows/new")
@bp.post("/workflows/<definition_id>/edit")
@roles_required(*ADMIN)
def save_workflow_definition(definition_id: str | None = None):
    form = {k: (request.form.get(k) or "").strip() for k in ("name", "description", "steps")}
    definition = (
        definitions.get_definition(current_user.tenant_id, definition_id) if definition_id else None
    )
    steps, errors = _parse(form)
    if errors or steps is None:
        return _form_page(definition, form, errors, 422)
    try:
        saved = _save(definition_id, form, steps)
    except DomainError as error:
        detail = [f"{e.field}: {e.message}" if e.field else e.message for e in error.errors]
        return _form_page(definition, form, {"steps": detail}, error.status)
    flash(f"Saved “{saved.name}” (version {saved.version}).", "success")
    return redirect(url_for("portal.workflow_definitions_page"))


@transactional
def _save(definition_id: str | None, form: dict[str, str], steps: list[dict[str, Any]]):
    tenant_id = current_user.tenant_id
    if definition_id is None:
        return definitions.create_definition(
            tenant_id, form["name"][:200], form["description"][:2000] or None, steps, portal_actor()
        )
    definition = definitions.get_definition(tenant_id, definition_id)
    changes = {"name": form["name"][:200], "description": form["description"][:2000] or None,
               "steps": steps}  # fmt: skip
    return definitions.update_definition(definition, changes, portal_actor())

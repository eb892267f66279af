"""Workflow definitions: ordered steps, each with approvers (a user by id or e-mail, or a role),
a mode (`any`: one approval completes the step; `all`: every approver must), an optional
deadline and an approver added when it passes. Saving checks that every named person is a user
of the tenant; editing bumps the version and never touches running instances (they copied the
steps they started with)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, select

from errors import FieldError, validation_failed
from extensions import db
from models import Role, User, WorkflowDefinition
from services.audit import audit_log
from services.core.actors import Actor
from services.core.paging import keyset_page


def get_definition(tenant_id: str, definition_id: str) -> WorkflowDefinition:
    return WorkflowDefinition.get_for_tenant(definition_id, tenant_id)


def list_definitions(
    tenant_id: str, limit: int, position: Sequence[Any] | None
) -> tuple[list[WorkflowDefinition], bool]:
    stmt = WorkflowDefinition.query_for_tenant(tenant_id)
    return keyset_page(stmt, [(WorkflowDefinition.id, True)], limit, position)


def _check_approver(tenant_id: str, ref: dict[str, str], field: str) -> FieldError | None:
    """None when the approver names a user of this tenant, or a role; else why not."""
    if "role" in ref:
        if ref["role"] not in {r.value for r in Role}:
            return FieldError("VALIDATION_ERROR", "Unknown role.", field)
        return None
    if "user" in ref:
        condition = User.id == ref["user"]
    else:
        condition = func.lower(User.email) == ref["email"].strip().lower()
    found = db.session.scalar(
        select(func.count()).select_from(User).where(User.tenant_id == tenant_id, condition)
    )
    if not found:
        what = "user id" if "user" in ref else "e-mail address"
        return FieldError("VALIDATION_ERROR", f"No user of this tenant has this {what}.", field)
    return None


def check_steps(tenant_id: str, steps: list[dict[str, Any]]) -> None:
    """422 naming each approver that is not a user of the tenant (another tenant's user id
    included: it is simply unknown here)."""
    errors = []
    for i, step in enumerate(steps):
        for j, ref in enumerate(step["approvers"]):
            error = _check_approver(tenant_id, ref, f"steps.{i}.approvers.{j}")
            if error:
                errors.append(error)
        if step.get("escalateTo"):
            error = _check_approver(tenant_id, step["escalateTo"], f"steps.{i}.escalateTo")
            if error:
                errors.append(error)
    if errors:
        raise validation_failed(errors)


def create_definition(
    tenant_id: str, name: str, description: str | None, steps: list[dict[str, Any]], actor: Actor
) -> WorkflowDefinition:
    check_steps(tenant_id, steps)
    definition = WorkflowDefinition(
        tenant_id=tenant_id,
        name=name,
        description=description,
        steps=steps,
        version=1,
        created_by=actor.ref,
    )
    db.session.add(definition)
    db.session.flush()
    audit_log.record(
        tenant_id,
        actor,
        "workflow.definition_created",
        target_type="workflow_definition",
        target_id=definition.id,
        details={"name": name, "steps": len(steps)},
    )
    return definition


def update_definition(
    definition: WorkflowDefinition, changes: dict[str, Any], actor: Actor
) -> WorkflowDefinition:
    """Change name, description or steps; new steps make a new version (running instances keep
    the steps they copied)."""
    if "steps" in changes:
        check_steps(definition.tenant_id, changes["steps"])
        if changes["steps"] != definition.steps:
            definition.steps = changes["steps"]
            definition.version += 1
    if "name" in changes:
        definition.name = changes["name"]
    if "description" in changes:
        definition.description = changes["description"]
    db.session.flush()
    audit_log.record(
        definition.tenant_id,
        actor,
        "workflow.definition_updated",
        target_type="workflow_definition",
        target_id=definition.id,
        details={"fields": sorted(changes), "version": definition.version},
    )
    return definition

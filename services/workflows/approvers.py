"""Who can act on an instance now. An approver reference names a user by id or e-mail, or a
role; it resolves to the tenant's *active* users at the moment of asking, so a person who was
deactivated or whose role changed drops out at the next recomputation, and a new admin joins a
role step. The result is stored in `workflow_current_approvers` (what `approver=me` joins) and
recomputed on every change of the instance and whenever a user's access changes."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import delete, func, or_, select

from extensions import db
from models import (
    User,
    WorkflowAction,
    WorkflowCurrentApprover,
    WorkflowInstance,
)
from models.workflows import OPEN_STATES


def resolve(tenant_id: str, refs: Iterable[dict[str, Any]]) -> set[str]:
    """The ids of the tenant's active users the references name."""
    ids, emails, roles = set(), set(), set()
    for ref in refs:
        if "user" in ref:
            ids.add(ref["user"])
        elif "email" in ref:
            emails.add(ref["email"].strip().lower())
        elif "role" in ref:
            roles.add(ref["role"])
    clauses = []
    if ids:
        clauses.append(User.id.in_(ids))
    if emails:
        clauses.append(func.lower(User.email).in_(emails))
    if roles:
        clauses.append(User.role.in_(roles))
    if not clauses:
        return set()
    rows = db.session.scalars(
        select(User.id).where(
            User.tenant_id == tenant_id, User.is_active_user.is_(True), or_(*clauses)
        )
    )
    return set(rows)


def step_refs(instance: WorkflowInstance) -> list[dict[str, Any]]:
    """The current step's approvers plus those escalation added."""
    if instance.current_step is None:
        return []
    step = instance.steps[instance.current_step]
    return [*step["approvers"], *(instance.added_approvers or [])]


def approved_at_step(instance: WorkflowInstance) -> set[str]:
    """Who approved the current step so far (an `all` step waits for the rest)."""
    rows = db.session.scalars(
        select(WorkflowAction.user_id).where(
            WorkflowAction.instance_id == instance.id,
            WorkflowAction.step == instance.current_step,
            WorkflowAction.action == "approved",
        )
    )
    return {r for r in rows if r}


def compute(instance: WorkflowInstance) -> set[str]:
    """Who can act now: nobody on a finished instance; on an `all` step, whoever of the
    step's approvers has not approved yet."""
    if instance.state not in OPEN_STATES or instance.current_step is None:
        return set()
    candidates = resolve(instance.tenant_id, step_refs(instance))
    if instance.steps[instance.current_step]["mode"] == "all":
        candidates -= approved_at_step(instance)
    return candidates


def stored(instance_id: str) -> set[str]:
    rows = db.session.scalars(
        select(WorkflowCurrentApprover.user_id).where(
            WorkflowCurrentApprover.instance_id == instance_id
        )
    )
    return set(rows)


def refresh(instance: WorkflowInstance) -> tuple[set[str], set[str]]:
    """Recompute and store who can act; (everyone who can, those who could not before)."""
    now = compute(instance)
    before = stored(instance.id)
    if now != before:
        db.session.execute(
            delete(WorkflowCurrentApprover).where(
                WorkflowCurrentApprover.instance_id == instance.id,
                WorkflowCurrentApprover.user_id.in_(before - now),
            )
        )
        db.session.add_all(
            WorkflowCurrentApprover(instance_id=instance.id, user_id=u) for u in now - before
        )
        db.session.flush()
    return now, now - before

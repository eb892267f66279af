"""Workflow definitions and instances as they go over the wire (CONTRACT §9), built for a
whole page at once (one query each for approvers, people and history, not one per row)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, Field
from sqlalchemy import select

from extensions import db
from models import (
    User,
    WorkflowAction,
    WorkflowCurrentApprover,
    WorkflowDefinition,
    WorkflowInstance,
)
from services.core.wire import Timestamp, Wire


class ApproverRef(BaseModel):
    """Exactly one of user, email, role."""

    user: str | None = None
    email: str | None = None
    role: Literal["admin", "member", "auditor"] | None = None


class StepOut(BaseModel):
    name: str
    mode: Literal["any", "all"]
    approvers: list[ApproverRef]
    dueInHours: int | None = None
    escalateTo: ApproverRef | None = None


class WorkflowDefinitionOut(Wire):
    id: str
    name: str
    description: str | None
    steps: list[StepOut]
    version: int = Field(description="Increments when the steps change.")
    created_at: Timestamp
    updated_at: Timestamp


class SubjectOut(BaseModel):
    type: Literal["document", "formSubmission"]
    id: str


class PersonOut(BaseModel):
    id: str
    email: str
    name: str | None


class HistoryEntryOut(Wire):
    at: Timestamp
    actor: str = Field(description='"user:usr_…", "key:key_…" or "system:workflow".')
    actor_label: str | None
    action: Literal[
        "started", "approved", "rejected", "step_completed", "escalated", "stalled", "cancelled"
    ]
    step: int | None
    comment: str | None


class WorkflowInstanceOut(Wire):
    id: str
    definition_id: str
    definition_version: int
    subject: SubjectOut
    state: Literal["pending", "in_progress", "approved", "rejected", "cancelled"]
    current_step: int | None = Field(description="0-based; null when finished.")
    current_step_name: str | None
    current_approvers: list[PersonOut] = Field(description="Who can act now.")
    step_due_at: Timestamp | None
    stalled_reason: str | None
    history: list[HistoryEntryOut]
    created_at: Timestamp
    updated_at: Timestamp
    completed_at: Timestamp | None


def definition_data(definition: WorkflowDefinition) -> dict[str, Any]:
    return WorkflowDefinitionOut.model_validate(definition).model_dump(
        mode="json", by_alias=True, exclude_none=False
    )


def instances_data(rows: Sequence[WorkflowInstance]) -> list[dict[str, Any]]:
    ids = [r.id for r in rows]
    approvers: dict[str, list[str]] = defaultdict(list)
    history: dict[str, list[WorkflowAction]] = defaultdict(list)
    people: dict[str, User] = {}
    if ids:
        for instance_id, user_id in db.session.execute(
            select(WorkflowCurrentApprover.instance_id, WorkflowCurrentApprover.user_id).where(
                WorkflowCurrentApprover.instance_id.in_(ids)
            )
        ):
            approvers[instance_id].append(user_id)
        wanted = {u for users in approvers.values() for u in users}
        if wanted:
            people = User.get_many_for_tenant(list(wanted), rows[0].tenant_id)
        for action in db.session.scalars(
            select(WorkflowAction)
            .where(WorkflowAction.instance_id.in_(ids))
            .order_by(WorkflowAction.id)
        ):
            history[action.instance_id].append(action)
    return [
        _instance(
            r, sorted((people[u] for u in approvers[r.id]), key=lambda u: u.email), history[r.id]
        )
        for r in rows
    ]


def instance_data(instance: WorkflowInstance) -> dict[str, Any]:
    return instances_data([instance])[0]


def _instance(
    instance: WorkflowInstance, current: list[User], history: list[WorkflowAction]
) -> dict[str, Any]:
    step = instance.current_step
    return WorkflowInstanceOut(
        id=instance.id,
        definition_id=instance.definition_id,
        definition_version=instance.definition_version,
        subject=SubjectOut(type=instance.subject_type, id=instance.subject_id),  # type: ignore[arg-type]
        state=instance.state,  # type: ignore[arg-type]
        current_step=step,
        current_step_name=instance.steps[step]["name"] if step is not None else None,
        current_approvers=[PersonOut(id=u.id, email=u.email, name=u.name) for u in current],
        step_due_at=instance.step_due_at,
        stalled_reason=instance.stalled_reason,
        history=[HistoryEntryOut.model_validate(a) for a in history],
        created_at=instance.created_at,
        updated_at=instance.updated_at,
        completed_at=instance.completed_at,
    ).model_dump(mode="json", by_alias=True)

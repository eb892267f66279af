"""The escalation sweep's units of work (a scheduled job every few minutes, jobs/workflows.py,
commits each instance on its own): an open step past its deadline gets its `escalateTo`
approver added (audited in the history, announced with `workflow.instance.escalated`, the new
approver notified) or, without one, the admins are told it is overdue; and any open instance
nobody can act on is escalated or reported, so a change the signals missed still never leaves
an instance stuck silently."""

from __future__ import annotations

from sqlalchemy import exists, select

import clock
from extensions import db
from models import WorkflowCurrentApprover, WorkflowInstance
from models.workflows import OPEN_STATES
from services.notifications.notifications import Message, notify_admins
from services.workflows import instances

BATCH = 200


def overdue_ids(now) -> list[str]:
    return list(
        db.session.scalars(
            select(WorkflowInstance.id)
            .where(
                WorkflowInstance.state.in_(OPEN_STATES),
                WorkflowInstance.step_due_at.is_not(None),
                WorkflowInstance.step_due_at <= now,
            )
            .limit(BATCH)
        )
    )


def unattended_ids() -> list[str]:
    """Open, not reported as stalled, and nobody stored as able to act."""
    return list(
        db.session.scalars(
            select(WorkflowInstance.id)
            .where(
                WorkflowInstance.state.in_(OPEN_STATES),
                WorkflowInstance.stalled_reason.is_(None),
                ~exists().where(WorkflowCurrentApprover.instance_id == WorkflowInstance.id),
            )
            .limit(BATCH)
        )
    )


def escalate_overdue(instance_id: str) -> bool:
    """Escalate the instance's overdue step, or tell the admins; False when nothing was due."""
    instance = db.session.get(WorkflowInstance, instance_id)
    if instance is None or instance.current_step is None or instance.step_due_at is None:
        return False
    step = instance.current_step
    due = instance.step_due_at

    def change() -> None:
        if instance.current_step != step or instance.step_due_at is None:
            return  # moved on meanwhile
        if instance.steps[step].get("escalateTo"):
            instances.escalate(instance, f"The step was due at {clock.rfc3339(due)}.")
            return
        instance.step_due_at = None  # reported once per step
        about = instances.subject_of(instance)
        notify_admins(
            instance.tenant_id,
            Message(
                "workflow.overdue",
                f"A workflow step is overdue on “{about['title']}”",
                f"Step {step + 1} ({instance.steps[step]['name']}) of the workflow on "
                f"{about['kind']} “{about['title']}” was due at {clock.rfc3339(due)} and has "
                "no one to escalate to.",
                {instances.SUBJECT_KEY: instance.id, "step": step, **about["data"]},
            ),
            f"workflow-overdue:{instance.id}:{step}",
        )

    instances.change_instance(instance, change)
    return True


def report_unattended(instance_id: str) -> bool:
    """Escalate or report an open instance nobody can act on; False when it is gone."""
    instance = db.session.get(WorkflowInstance, instance_id)
    if instance is None:
        return False
    instances.change_instance(instance, lambda: instances.refresh_approvers(instance))
    return True

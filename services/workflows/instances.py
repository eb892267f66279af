"""Workflow instances: start one on a document or a form submission, approve, reject, cancel.

Every change goes through `_claim`, a conditional UPDATE of the instance's revision: of two
approvers acting at the same moment on an `any` step, one advances it and the other finds the
revision moved. The loser retries when its action still makes sense on what the winner left
(the same step, still open, still among those who can act: an `all` step collecting approvals),
and otherwise gets 409 CONFLICT. Works the same on PostgreSQL and SQLite, without row locks."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import update

import clock
from errors import DomainError, FieldError, conflict, validation_failed
from extensions import db
from models import (
    Document,
    Form,
    FormSubmission,
    User,
    WorkflowAction,
    WorkflowDefinition,
    WorkflowInstance,
)
from models.workflows import OPEN_STATES, InstanceState
from services.audit import audit_log
from services.core import events, signals
from services.core.actors import Actor
from services.notifications.notifications import Message, notify, notify_admins, settle
from services.workflows import approvers, wire

SUBJECT_TYPES = ("document", "formSubmission")
# Decisions and escalations also go to the tenant's audit log (the history has the rest).
AUDITED = {"started", "approved", "rejected", "cancelled", "escalated"}
MAX_ATTEMPTS = 5
# The key of a notification's data that names the instance it is about (settled on acting).
SUBJECT_KEY = "workflowInstanceId"


def get_instance(tenant_id: str, instance_id: str) -> WorkflowInstance:
    return WorkflowInstance.get_for_tenant(instance_id, tenant_id)


def start_instance(
    tenant_id: str, definition_id: str, subject_type: str, subject_id: str, actor: Actor
) -> WorkflowInstance:
    """Start the definition's current steps on the subject (flushes; the caller commits)."""
    definition = WorkflowDefinition.find_for_tenant(definition_id, tenant_id)
    if definition is None:
        raise validation_failed(
            [FieldError("VALIDATION_ERROR", "No such workflow definition.", "definitionId")]
        )
    if subject_type == "document":
        document = Document.find_for_tenant(subject_id, tenant_id)
        if document is None or document.deleted_at:
            raise validation_failed(
                [FieldError("VALIDATION_ERROR", "No such document.", "documentId")]
            )
    elif subject_type not in SUBJECT_TYPES:
        raise ValueError(subject_type)
    instance = WorkflowInstance(
        tenant_id=tenant_id,
        definition_id=definition.id,
        definition_version=definition.version,
        steps=[dict(step) for step in definition.steps],
        subject_type=subject_type,
        subject_id=subject_id,
        state=InstanceState.PENDING.value,
        added_approvers=[],
        started_by=actor.ref,
        revision=0,
    )
    db.session.add(instance)
    db.session.flush()
    signals.workflow_instance_state_changed.send(instance, previous=None)
    _record(instance, actor, "started", step=None)
    _emit(instance, "workflow.instance.created")
    _enter_step(instance, 0, clock.now())
    return instance


def approve(instance: WorkflowInstance, user: User, comment: str | None) -> WorkflowInstance:
    return _act(instance, user, "approved", comment)


def reject(instance: WorkflowInstance, user: User, comment: str | None) -> WorkflowInstance:
    return _act(instance, user, "rejected", comment)


def cancel(instance: WorkflowInstance, actor: Actor, is_admin: bool, comment: str | None = None):
    """The one who started it, or an admin, may cancel an open instance."""
    if actor.ref != instance.started_by and not is_admin:
        raise DomainError(
            403, "FORBIDDEN", "Only the one who started this workflow or an admin can cancel it."
        )

    def change() -> None:
        if instance.state not in OPEN_STATES:
            raise conflict(f"This workflow is {instance.state} already.")
        _record(instance, actor, "cancelled", instance.current_step, comment)
        _finish(instance, InstanceState.CANCELLED, "workflow.instance.cancelled")

    change_instance(instance, change)
    return instance


def _act(
    instance: WorkflowInstance, user: User, action: str, comment: str | None
) -> WorkflowInstance:
    actor = Actor("user", user.id, user.email)

    def change() -> None:
        if instance.state not in OPEN_STATES:
            raise conflict(f"This workflow is {instance.state}: nobody can act on it any more.")
        # Checked live, not from the stored list: a role changed a second ago counts.
        if user.id not in approvers.compute(instance):
            if user.id in approvers.approved_at_step(instance):
                raise conflict("You approved this step already; it waits for the others.")
            raise DomainError(
                403, "NOT_AN_APPROVER", "You are not among who can act on this step now."
            )
        step = instance.current_step
        assert step is not None
        _record(instance, actor, action, step, comment, user_id=user.id)
        settle(instance.tenant_id, SUBJECT_KEY, instance.id, user_id=user.id)
        if action == "rejected":
            _finish(instance, InstanceState.REJECTED, "workflow.instance.rejected")
            return
        instance.state = InstanceState.IN_PROGRESS.value
        mode = instance.steps[step]["mode"]
        waiting = approvers.compute(instance)  # `all`: who has not approved yet
        if mode == "any" or not waiting:
            _complete_step(instance, step)
        else:
            refresh_approvers(instance)

    change_instance(instance, change)
    return instance


def change_instance(instance: WorkflowInstance, change: Callable[[], None]) -> None:
    """Claim the instance's current revision, then apply `change` to what it is now."""
    for _ in range(MAX_ATTEMPTS):
        seen = instance.revision
        claimed = db.session.execute(
            update(WorkflowInstance)
            .where(WorkflowInstance.id == instance.id, WorkflowInstance.revision == seen)
            .values(revision=seen + 1)
            .execution_options(synchronize_session=False)
        ).rowcount
        if claimed:
            instance.revision = seen + 1
            db.session.flush()
            previous = instance.state
            change()
            if instance.state != previous:
                signals.workflow_instance_state_changed.send(instance, previous=previous)
            return
        # Someone else changed it first: look again at what they left.
        db.session.refresh(instance)
    raise conflict("This workflow is changing under heavy contention; try again.")


def _complete_step(instance: WorkflowInstance, step: int) -> None:
    now = clock.now()
    _record(instance, Actor.system("workflow"), "step_completed", step)
    _emit(instance, "workflow.instance.step_completed", {"step": step})
    # Whoever was asked for this step (or told it was overdue) has nothing left to do.
    settle(instance.tenant_id, SUBJECT_KEY, instance.id)
    if step + 1 >= len(instance.steps):
        _finish(instance, InstanceState.APPROVED, "workflow.instance.approved")
    else:
        _enter_step(instance, step + 1, now)


def _enter_step(instance: WorkflowInstance, step: int, now: datetime) -> None:
    definition = instance.steps[step]
    instance.current_step = step
    instance.step_started_at = now
    due = definition.get("dueInHours")
    instance.step_due_at = now + timedelta(hours=due) if due else None
    instance.added_approvers = []
    instance.stalled_reason = None
    db.session.flush()
    refresh_approvers(instance)


def _finish(instance: WorkflowInstance, state: InstanceState, event_type: str) -> None:
    instance.state = state.value
    instance.current_step = None
    instance.step_due_at = None
    instance.completed_at = clock.now()
    instance.stalled_reason = None
    db.session.flush()
    approvers.refresh(instance)
    settle(instance.tenant_id, SUBJECT_KEY, instance.id)
    _emit(instance, event_type)


def refresh_approvers(instance: WorkflowInstance) -> set[str]:
    """Recompute who can act; tell each newcomer; never leave a step nobody can act on
    silently: escalate it, or record why it is stalled and tell the admins."""
    now, added = approvers.refresh(instance)
    if instance.state in OPEN_STATES and not now:
        step = instance.steps[instance.current_step or 0]
        if step.get("escalateTo") and not instance.added_approvers:
            escalate(instance, "Nobody among the step's approvers can act any more.")
            return approvers.stored(instance.id)
        _stall(instance)
        return now
    if instance.stalled_reason and now:
        instance.stalled_reason = None
    for user_id in added:
        _tell_approver(instance, user_id)
    return now


def escalate(instance: WorkflowInstance, why: str) -> None:
    """Add the step's `escalateTo` approver (the deadline passed, or nobody else can act)."""
    step = instance.current_step
    assert step is not None
    target = instance.steps[step]["escalateTo"]
    instance.added_approvers = [*(instance.added_approvers or []), target]
    instance.step_due_at = None  # escalated once per step
    db.session.flush()
    _record(instance, Actor.system("workflow"), "escalated", step, why)
    _emit(instance, "workflow.instance.escalated", {"step": step, "reason": why})
    refresh_approvers(instance)


def _stall(instance: WorkflowInstance) -> None:
    if instance.stalled_reason:
        return
    step = instance.current_step
    reason = "Nobody can act on this step: none of its approvers is an active user."
    instance.stalled_reason = reason
    db.session.flush()
    _record(instance, Actor.system("workflow"), "stalled", step, reason)
    about = subject_of(instance)
    notify_admins(
        instance.tenant_id,
        Message(
            "workflow.stalled",
            f"A workflow is stuck on “{about['title']}”: nobody can approve its step",
            f"Step {(step or 0) + 1} of the workflow on {about['kind']} “{about['title']}” has "
            "no active approver and no escalation. Edit the people or cancel the workflow.",
            {SUBJECT_KEY: instance.id, "step": step, **about["data"]},
        ),
        f"workflow-stalled:{instance.id}:{step}",
    )


def subject_of(instance: WorkflowInstance) -> dict[str, Any]:
    """What the instance is about, in words for a notification: its kind, its title (a
    document's title, a form's name) and the ids a reader follows (`documentId`, ...)."""
    ref = {"subject": {"type": instance.subject_type, "id": instance.subject_id}}
    if instance.subject_type == "document":
        document = Document.find_for_tenant(instance.subject_id, instance.tenant_id)
        title = document.title if document is not None else instance.subject_id
        data = {**ref, "documentId": instance.subject_id, "subjectTitle": title}
        return {"kind": "document", "title": title, "data": data}
    submission = FormSubmission.find_for_tenant(instance.subject_id, instance.tenant_id)
    form = Form.find_for_tenant(submission.form_id, instance.tenant_id) if submission else None
    title = f"{form.name} submission" if form is not None else instance.subject_id
    return {"kind": "form submission", "title": title, "data": {**ref, "subjectTitle": title}}


def _tell_approver(instance: WorkflowInstance, user_id: str) -> None:
    step = instance.current_step or 0
    about = subject_of(instance)
    notify(
        instance.tenant_id,
        user_id,
        Message(
            "workflow.approval_waiting",
            f"Approval waiting: “{about['title']}”",
            f"The {about['kind']} “{about['title']}” waits for your approval at step "
            f"{step + 1} of {len(instance.steps)} ({instance.steps[step]['name']}).",
            {SUBJECT_KEY: instance.id, "step": step, **about["data"]},
        ),
        f"approval:{instance.id}:{step}:{user_id}",
    )


def _record(
    instance: WorkflowInstance,
    actor: Actor,
    action: str,
    step: int | None,
    comment: str | None = None,
    user_id: str | None = None,
) -> None:
    db.session.add(
        WorkflowAction(
            instance_id=instance.id,
            at=clock.now(),
            actor=f"{actor.type}:{actor.id}" if actor.id else f"system:{actor.label}",
            actor_label=actor.label,
            action=action,
            step=step,
            user_id=user_id,
            comment=comment,
        )
    )
    db.session.flush()
    if action in AUDITED:
        audit_log.record(
            instance.tenant_id,
            actor,
            f"workflow.{action}",
            target_type="workflow_instance",
            target_id=instance.id,
            details={"step": step, "subject": f"{instance.subject_type}:{instance.subject_id}"},
        )


def _emit(instance: WorkflowInstance, event_type: str, extra: dict[str, Any] | None = None):
    events.emit(
        instance.tenant_id,
        event_type,
        {"instance": wire.instance_data(instance), **(extra or {})},
    )

"""Approval workflows: definitions (ordered steps of approvers), instances running one on a
document or a form submission, and every action taken on an instance (its history).

An instance copies its definition's steps when it starts, so editing a definition never
changes what a running instance asks for. Who can act now is kept in
`workflow_current_approvers`, recomputed on every change (services/workflows/approvers.py),
so "waiting for me" is one indexed join."""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

import clock
from extensions import db
from models.base import TenantScoped, UTCDateTime, created_at_column, id_column


class InstanceState(enum.StrEnum):
    PENDING = "pending"  # started; nobody has acted yet
    IN_PROGRESS = "in_progress"  # at least one approval given, not finished
    APPROVED = "approved"
    REJECTED = "rejected"
    CANCELLED = "cancelled"


OPEN_STATES = (InstanceState.PENDING.value, InstanceState.IN_PROGRESS.value)


class WorkflowDefinition(TenantScoped, db.Model):
    __tablename__ = "workflow_definitions"
    __not_found_label__ = "Workflow definition"

    id: Mapped[str] = id_column("wfd")
    name: Mapped[str] = mapped_column(String(200), nullable=False)
    description: Mapped[str | None] = mapped_column(String(2000))
    # [{"name", "mode": "any"|"all", "approvers": [{"user"|"email"|"role": …}],
    #   "dueInHours": int|None, "escalateTo": approver|None}] (CONTRACT §9)
    steps: Mapped[list[dict[str, Any]]] = mapped_column(JSON, nullable=False)
    version: Mapped[int] = mapped_column(Integer, nullable=False, default=1)
    created_by: Mapped[str | None] = mapped_column(String(60))
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = mapped_column(
        UTCDateTime(), default=clock.now, onupdate=clock.now, nullable=False
    )


class WorkflowInstance(TenantScoped, db.Model):
    __tablename__ = "workflow_instances"
    __not_found_label__ = "Workflow instance"
    __table_args__ = (
        Index("ix_workflow_instances_subject", "subject_type", "subject_id", "id"),
        Index("ix_workflow_instances_tenant_state", "tenant_id", "state", "id"),
        # The escalation sweep: open instances whose current step is overdue.
        Index("ix_workflow_instances_due", "state", "step_due_at"),
        # Analytics: the median cycle time of the instances finished in a recent window.
        Index("ix_workflow_instances_tenant_completed", "tenant_id", "completed_at"),
    )

    id: Mapped[str] = id_column("wfi")
    definition_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("workflow_definitions.id", ondelete="RESTRICT"), nullable=False
    )
    definition_version: Mapped[int] = mapped_column(Integer, nullable=False)
    steps: Mapped[list[dict[str, Any]]] = mapped_column(JSON, nullable=False)  # the copy
    subject_type: Mapped[str] = mapped_column(String(20), nullable=False)
    subject_id: Mapped[str] = mapped_column(String(40), nullable=False)
    state: Mapped[str] = mapped_column(
        String(16), nullable=False, default=InstanceState.PENDING.value
    )
    current_step: Mapped[int | None] = mapped_column(Integer)
    step_started_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    step_due_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # Approvers added to the current step by escalation ([{"user": …}]); reset per step.
    added_approvers: Mapped[list[dict[str, Any]]] = mapped_column(
        JSON, nullable=False, default=list
    )
    # Why nobody can act on the current step (every approver gone and no escalation), or None.
    stalled_reason: Mapped[str | None] = mapped_column(String(300))
    started_by: Mapped[str] = mapped_column(String(60), nullable=False)  # actor ref
    # Bumped by every change with a conditional UPDATE: two approvers acting at once on an
    # `any` step advance it once (services/workflows/instances.py).
    revision: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = mapped_column(
        UTCDateTime(), default=clock.now, onupdate=clock.now, nullable=False
    )
    completed_at: Mapped[datetime | None] = mapped_column(UTCDateTime())

    history: Mapped[list[WorkflowAction]] = relationship(
        order_by="WorkflowAction.id", cascade="all, delete-orphan", passive_deletes=True
    )


class WorkflowAction(db.Model):
    """One entry of an instance's history: who did what, when, at which step, and why."""

    __tablename__ = "workflow_actions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    instance_id: Mapped[str] = mapped_column(
        String(40),
        ForeignKey("workflow_instances.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    )
    at: Mapped[datetime] = created_at_column()
    actor: Mapped[str] = mapped_column(String(60), nullable=False)  # "user:usr_…", "system"
    actor_label: Mapped[str | None] = mapped_column(String(320))
    # started, approved, rejected, step_completed, escalated, stalled, cancelled
    action: Mapped[str] = mapped_column(String(20), nullable=False)
    step: Mapped[int | None] = mapped_column(Integer)
    user_id: Mapped[str | None] = mapped_column(String(40))  # the person who acted, if one
    comment: Mapped[str | None] = mapped_column(Text)


class WorkflowCurrentApprover(db.Model):
    """Who can act on an open instance now (derived; recomputed on every change)."""

    __tablename__ = "workflow_current_approvers"
    __table_args__ = (UniqueConstraint("instance_id", "user_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    instance_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("workflow_instances.id", ondelete="CASCADE"), nullable=False
    )
    user_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True
    )

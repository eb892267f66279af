"""Recompute who can act on every open instance of a tenant (after a user's access changed):
the units of work of jobs/workflows.refresh_tenant, one per instance."""

from __future__ import annotations

from sqlalchemy import select

from extensions import db
from models import WorkflowInstance
from models.workflows import OPEN_STATES
from services.workflows import instances


def open_instance_ids(tenant_id: str) -> list[str]:
    return list(
        db.session.scalars(
            select(WorkflowInstance.id).where(
                WorkflowInstance.tenant_id == tenant_id,
                WorkflowInstance.state.in_(OPEN_STATES),
            )
        )
    )


def refresh_instance(tenant_id: str, instance_id: str) -> None:
    instance = db.session.scalar(
        select(WorkflowInstance).where(
            WorkflowInstance.id == instance_id, WorkflowInstance.tenant_id == tenant_id
        )
    )
    if instance is not None and instance.state in OPEN_STATES:
        instances.change_instance(instance, lambda: instances.refresh_approvers(instance))

"""Recompute who can act on every open instance of a tenant (after a user's access changed)."""

from __future__ import annotations

from sqlalchemy import select

from extensions import db
from models import WorkflowInstance
from models.workflows import OPEN_STATES
from services.core import transaction
from services.workflows import instances


def refresh_tenant(tenant_id: str) -> int:
    """One unit of work per instance; how many were looked at."""
    ids = list(
        db.session.scalars(
            select(WorkflowInstance.id).where(
                WorkflowInstance.tenant_id == tenant_id,
                WorkflowInstance.state.in_(OPEN_STATES),
            )
        )
    )
    for instance_id in ids:
        transaction.transactional(_refresh)(instance_id)
    return len(ids)


def _refresh(instance_id: str) -> None:
    instance = db.session.get(WorkflowInstance, instance_id)
    if instance is not None and instance.state in OPEN_STATES:
        instances.change_instance(instance, lambda: instances.refresh_approvers(instance))

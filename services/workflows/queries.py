"""Reading workflow instances: the list with its filters (state, subject, approver, creation
range), newest first with keyset pagination, and what waits for a person."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from models import WorkflowCurrentApprover, WorkflowInstance
from services.core.paging import keyset_page


@dataclass(frozen=True)
class InstanceFilters:
    state: str | None = None
    document_id: str | None = None
    definition_id: str | None = None
    subject_type: str | None = None
    subject_id: str | None = None
    approver_id: str | None = None  # "approver=me", resolved to the caller's user id
    created_after: datetime | None = None
    created_before: datetime | None = None


def list_instances(
    tenant_id: str, filters: InstanceFilters, limit: int, position: Sequence[Any] | None
) -> tuple[list[WorkflowInstance], bool]:
    stmt = WorkflowInstance.query_for_tenant(tenant_id)
    if filters.state:
        stmt = stmt.where(WorkflowInstance.state == filters.state)
    if filters.document_id:
        stmt = stmt.where(
            WorkflowInstance.subject_type == "document",
            WorkflowInstance.subject_id == filters.document_id,
        )
    if filters.definition_id:
        stmt = stmt.where(WorkflowInstance.definition_id == filters.definition_id)
    if filters.subject_type and filters.subject_id:
        stmt = stmt.where(
            WorkflowInstance.subject_type == filters.subject_type,
            WorkflowInstance.subject_id == filters.subject_id,
        )
    if filters.approver_id:
        stmt = stmt.join(
            WorkflowCurrentApprover, WorkflowCurrentApprover.instance_id == WorkflowInstance.id
        ).where(WorkflowCurrentApprover.user_id == filters.approver_id)
    if filters.created_after:
        stmt = stmt.where(WorkflowInstance.created_at >= filters.created_after)
    if filters.created_before:
        stmt = stmt.where(WorkflowInstance.created_at < filters.created_before)
    return keyset_page(stmt, [(WorkflowInstance.id, True)], limit, position)

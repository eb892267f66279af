"""Workflows resource (CONTRACT §4, §9): definitions, instances on documents, and acting on
them. Approving and rejecting need a person (a user's access token: 403 USER_CONTEXT_REQUIRED
for an API key); starting and reading work with keys too. Routes only: services/workflows."""

from __future__ import annotations

from flask import url_for

from api.auth import current_credential, require_scope, require_user
from api.blueprint import bp
from api.envelope import ok, ok_list
from api.idempotency import idempotent
from api.pagination import id_position
from api.validation import json_body, query_args, responds
from errors import DomainError
from models import Role, User
from services.core.cursors import binding_of, encode_cursor
from services.core.transaction import transactional
from services.workflows import definitions, instances, queries, wire
from services.workflows.wire import (
    ActBody,
    DefinitionCreate,
    DefinitionListQuery,
    DefinitionPatch,
    InstanceCreate,
    InstanceListQuery,
    WorkflowDefinitionOut,
    WorkflowInstanceOut,
)
from tenancy import current_tenant


def _person() -> User:
    return User.get_for_tenant(current_credential.id, current_tenant.id)


@bp.post("/workflows")
@require_scope("workflows:write")
@idempotent()
@json_body(DefinitionCreate)
@responds(WorkflowDefinitionOut, status=201)
def create_workflow_definition(body: DefinitionCreate):
    """Define ordered approval steps. Approvers are users (by id or e-mail) of this tenant, or
    a role. Accepts Idempotency-Key."""
    definition = definitions.create_definition(
        current_tenant.id,
        body.name,
        body.description,
        [step.stored() for step in body.steps],
        current_credential.actor(),
    )
    location = url_for("api.get_workflow_definition", definition_id=definition.id)
    return ok(wire.definition_data(definition), status=201, headers={"Location": location})


@bp.get("/workflows")
@require_scope("workflows:read")
@query_args(DefinitionListQuery)
@responds(WorkflowDefinitionOut, many=True)
def list_workflow_definitions(query: DefinitionListQuery):
    binding = binding_of(current_tenant.id, resource="workflow-definitions")
    rows, more = definitions.list_definitions(
        current_tenant.id, query.limit, id_position(query.cursor, binding)
    )
    next_cursor = encode_cursor(binding, [rows[-1].id]) if more else None
    return ok_list(
        [wire.definition_data(r) for r in rows], limit=query.limit, next_cursor=next_cursor
    )


@bp.get("/workflows/<definition_id>")
@require_scope("workflows:read")
@responds(WorkflowDefinitionOut)
def get_workflow_definition(definition_id: str):
    return ok(wire.definition_data(definitions.get_definition(current_tenant.id, definition_id)))


@bp.patch("/workflows/<definition_id>")
@require_scope("workflows:write")
@transactional
@json_body(DefinitionPatch)
@responds(WorkflowDefinitionOut)
def update_workflow_definition(definition_id: str, body: DefinitionPatch):
    """Rename, describe, or change the steps (a new version: running instances keep theirs)."""
    definition = definitions.get_definition(current_tenant.id, definition_id)
    changes = {name: getattr(body, name) for name in body.model_fields_set}
    if "steps" in changes:
        changes["steps"] = [step.stored() for step in body.steps]
    definitions.update_definition(definition, changes, current_credential.actor())
    return ok(wire.definition_data(definition))


@bp.post("/workflows/instances")
@require_scope("workflows:write")
@idempotent()
@json_body(InstanceCreate)
@responds(WorkflowInstanceOut, status=201)
def start_workflow_instance(body: InstanceCreate):
    """Start a definition on a document; its first step's approvers are notified. Accepts
    Idempotency-Key."""
    instance = instances.start_instance(
        current_tenant.id,
        body.definition_id,
        "document",
        body.document_id,
        current_credential.actor(),
    )
    location = url_for("api.get_workflow_instance", instance_id=instance.id)
    return ok(wire.instance_data(instance), status=201, headers={"Location": location})


@bp.get("/workflows/instances")
@require_scope("workflows:read")
@query_args(InstanceListQuery)
@responds(WorkflowInstanceOut, many=True)
def list_workflow_instances(query: InstanceListQuery):
    """Filter by state, document, creation time, or `approver=me` (what waits for the caller,
    who must be a person)."""
    approver_id = None
    if query.approver == "me":
        if current_credential.kind != "user":
            raise DomainError(
                403,
                "USER_CONTEXT_REQUIRED",
                "approver=me needs a person: use a user's access token, not an API key.",
            )
        approver_id = current_credential.id
    filters = queries.InstanceFilters(
        state=query.state,
        document_id=query.document_id,
        approver_id=approver_id,
        created_after=query.created_after,
        created_before=query.created_before,
    )
    binding = binding_of(
        current_tenant.id,
        resource="workflow-instances",
        filters=query.model_dump(exclude={"limit", "cursor"}, mode="json"),
        approver=approver_id,
    )
    rows, more = queries.list_instances(
        current_tenant.id, filters, query.limit, id_position(query.cursor, binding)
    )
    next_cursor = encode_cursor(binding, [rows[-1].id]) if more else None
    return ok_list(wire.instances_data(rows), limit=query.limit, next_cursor=next_cursor)


@bp.get("/workflows/instances/<instance_id>")
@require_scope("workflows:read")
@responds(WorkflowInstanceOut)
def get_workflow_instance(instance_id: str):
    return ok(wire.instance_data(instances.get_instance(current_tenant.id, instance_id)))


@bp.post("/workflows/instances/<instance_id>/approve")
@require_scope("workflows:write")
@require_user
@transactional
@json_body(ActBody, optional=True)
@responds(WorkflowInstanceOut)
def approve_workflow_instance(instance_id: str, body: ActBody):
    """Approve the current step (403 NOT_AN_APPROVER unless among currentApprovers; 409 on a
    finished instance). The body and its comment are optional."""
    instance = instances.get_instance(current_tenant.id, instance_id)
    instances.approve(instance, _person(), body.comment)
    return ok(wire.instance_data(instance))


@bp.post("/workflows/instances/<instance_id>/reject")
@require_scope("workflows:write")
@require_user
@transactional
@json_body(ActBody, optional=True)
@responds(WorkflowInstanceOut)
def reject_workflow_instance(instance_id: str, body: ActBody):
    """Reject: the instance ends `rejected`."""
    instance = instances.get_instance(current_tenant.id, instance_id)
    instances.reject(instance, _person(), body.comment)
    return ok(wire.instance_data(instance))


@bp.post("/workflows/instances/<instance_id>/cancel")
@require_scope("workflows:write")
@transactional
@json_body(ActBody, optional=True)
@responds(WorkflowInstanceOut)
def cancel_workflow_instance(instance_id: str, body: ActBody):
    """Cancel an open instance: whoever started it (key or person), or an admin."""
    instance = instances.get_instance(current_tenant.id, instance_id)
    is_admin = current_credential.kind == "user" and _person().role == Role.ADMIN.value
    instances.cancel(instance, current_credential.actor(), is_admin, body.comment)
    return ok(wire.instance_data(instance))

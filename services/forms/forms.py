"""Forms: create, change (a changed schema of a version that went live makes a new version),
publish, archive and publish again, list, and the schema each version answered."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select

from errors import FieldError, conflict, not_found, validation_failed
from extensions import db
from models import Form, FormStatus, FormVersion, WorkflowDefinition
from services.audit import audit_log
from services.core.actors import Actor
from services.core.paging import keyset_page
from services.forms import schemas

# draft -> published -> archived -> published (reopened); a draft may be dropped (archived).
# Nothing goes back to draft: submissions may already answer the form.
TRANSITIONS: dict[str, set[str]] = {
    FormStatus.DRAFT: {FormStatus.PUBLISHED, FormStatus.ARCHIVED},
    FormStatus.PUBLISHED: {FormStatus.ARCHIVED},
    FormStatus.ARCHIVED: {FormStatus.PUBLISHED},
}
EDITABLE = ("name", "description", "schema", "workflow_definition_id", "public")


def get_form(tenant_id: str, form_id: str) -> Form:
    """The tenant's form, or 404 (another tenant's id included)."""
    return Form.get_for_tenant(form_id, tenant_id)


def get_public_form(form_id: str) -> Form:
    """A form by id alone, for its public page: only a published, public form; anything else
    is the same 404. The id is the page's address, so the form decides the tenant."""
    form = db.session.scalar(
        select(Form).where(
            Form.id == form_id,
            Form.status == FormStatus.PUBLISHED.value,
            Form.public.is_(True),
        )
    )
    if form is None:
        raise not_found("Form")
    return form


def list_forms(
    tenant_id: str, limit: int, after: Sequence[Any] | None, status: str | None = None
) -> tuple[list[Form], bool]:
    """Newest first, a page at a time (keyset on the time-ordered id)."""
    stmt = Form.query_for_tenant(tenant_id)
    if status is not None:
        stmt = stmt.where(Form.status == status)
    return keyset_page(stmt, [(Form.id, True)], limit, after)


def workflow_choices(tenant_id: str) -> list[WorkflowDefinition]:
    """The tenant's workflow definitions a form may start (the portal's select)."""
    return list(
        db.session.scalars(
            WorkflowDefinition.query_for_tenant(tenant_id).order_by(WorkflowDefinition.name)
        )
    )


def _check_workflow(tenant_id: str, definition_id: str | None) -> None:
    if definition_id is None:
        return
    found = db.session.scalar(
        select(WorkflowDefinition.id).where(
            WorkflowDefinition.id == definition_id, WorkflowDefinition.tenant_id == tenant_id
        )
    )
    if found is None:
        raise validation_failed(
            [
                FieldError(
                    "VALIDATION_ERROR",
                    "workflowDefinitionId: no such workflow definition.",
                    "workflowDefinitionId",
                )
            ]
        )


def create_form(
    tenant_id: str,
    actor: Actor,
    *,
    name: str,
    schema: dict,
    description: str | None = None,
    workflow_definition_id: str | None = None,
    public: bool = False,
    status: str = FormStatus.DRAFT.value,
) -> Form:
    """A new form at version 1, a draft unless `status` says published."""
    schemas.check_schema(schema)
    _check_workflow(tenant_id, workflow_definition_id)
    if status not in (FormStatus.DRAFT, FormStatus.PUBLISHED):
        raise validation_failed(
            [FieldError("VALIDATION_ERROR", "status: a new form is draft or published.", "status")]
        )
    form = Form(
        tenant_id=tenant_id,
        name=name,
        description=description,
        schema=schema,
        status=status,
        version=1,
        workflow_definition_id=workflow_definition_id,
        public=public,
        created_by=actor.ref,
    )
    db.session.add(form)
    db.session.flush()
    if status == FormStatus.PUBLISHED:
        _keep_version(form)
    audit_log.record(
        tenant_id,
        actor,
        "form.created",
        target_type="form",
        target_id=form.id,
        details={"name": name, "status": status, "public": public},
    )
    return form


def update_form(form: Form, changes: dict[str, Any], actor: Actor) -> Form:
    """Apply a PATCH: fields of EDITABLE and `status`. A new schema for a version that went
    live (published now or before) becomes version n+1; the old version keeps its schema."""
    status = changes.get("status")
    if "schema" in changes:
        schemas.check_schema(changes["schema"])
    if "workflow_definition_id" in changes:
        _check_workflow(form.tenant_id, changes["workflow_definition_id"])
    if status is not None and status != form.status and status not in TRANSITIONS[form.status]:
        raise conflict(f"A {form.status} form cannot become {status}.")
    diff: dict[str, Any] = {}
    for name in EDITABLE:
        if name in changes and changes[name] != getattr(form, name):
            if name != "schema":
                diff[name] = [getattr(form, name), changes[name]]
            setattr(form, name, changes[name])
    if "schema" in changes and changes["schema"] != _live_schema(form):
        if _version_row(form, form.version) is not None:
            form.version += 1
            diff["version"] = [form.version - 1, form.version]
        else:
            diff["schema"] = "changed"
    if status is not None and status != form.status:
        diff["status"] = [form.status, status]
        form.status = status
    if form.status == FormStatus.PUBLISHED and _version_row(form, form.version) is None:
        _keep_version(form)
    if not diff:
        return form
    db.session.flush()
    action = {"published": "form.published", "archived": "form.archived"}.get(
        status if "status" in diff else "", "form.updated"
    )
    audit_log.record(
        form.tenant_id, actor, action, target_type="form", target_id=form.id, details=diff
    )
    return form


def _live_schema(form: Form) -> dict:
    """The schema of the form's current version as it went live (else as it stands)."""
    row = _version_row(form, form.version)
    return row.schema if row is not None else form.schema


def _version_row(form: Form, version: int) -> FormVersion | None:
    return db.session.scalar(
        select(FormVersion).where(FormVersion.form_id == form.id, FormVersion.version == version)
    )


def _keep_version(form: Form) -> None:
    db.session.add(FormVersion(form_id=form.id, version=form.version, schema=form.schema))
    db.session.flush()


def schema_of_version(form: Form, version: int) -> dict:
    """The schema submissions of `version` answered."""
    row = _version_row(form, version)
    return row.schema if row is not None else form.schema


def versions(form: Form) -> list[FormVersion]:
    return list(
        db.session.scalars(
            select(FormVersion).where(FormVersion.form_id == form.id).order_by(FormVersion.version)
        )
    )


def require_published(form: Form) -> None:
    """409 unless the form takes submissions now."""
    if form.status != FormStatus.PUBLISHED:
        raise conflict(f"This form is {form.status}; only a published form takes submissions.")

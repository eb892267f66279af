"""Workflow definitions and instances as they go over the wire, both ways (CONTRACT §9;
camelCase): the bodies and queries callers send, and the definitions and instances answered,
built for a whole page at once (one query each for approvers, people and history, not one per
row). The steps are validated here for the API's bodies and the portal's JSON textarea alike,
and stored in CONTRACT §9's names; whether named people exist is the service's check."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    TypeAdapter,
    field_validator,
    model_validator,
)
from pydantic.alias_generators import to_camel
from sqlalchemy import select

from extensions import db
from models import (
    User,
    WorkflowAction,
    WorkflowCurrentApprover,
    WorkflowDefinition,
    WorkflowInstance,
)
from services.core.wire import PageQuery, Timestamp, Wire, absent, reject_null

# --- requests ----------------------------------------------------------------------------------


MAX_STEPS = 20
MAX_APPROVERS_PER_STEP = 50

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
Id = Annotated[str, StringConstraints(min_length=1, max_length=40)]


def _exactly_one_approver(schema: dict[str, Any]) -> None:
    """The schema states `_exactly_one` as generators read it: one property, not null (a
    `oneOf` would turn the SDK's one Approver class into three)."""
    schema["minProperties"] = schema["maxProperties"] = 1
    for name, prop in schema["properties"].items():
        options = [p for p in prop.pop("anyOf", []) if p.get("type") != "null"]
        prop.pop("default", None)
        if options:
            prop.update(options[0])
        schema["properties"][name] = prop


class Approver(BaseModel):
    """Exactly one of: a user id, a user's e-mail, or a role (every active user having it)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=_exactly_one_approver)

    user: Id | None = None
    email: Annotated[str, StringConstraints(min_length=3, max_length=254)] | None = None
    role: Literal["admin", "member", "auditor"] | None = None

    @model_validator(mode="after")
    def _exactly_one(self) -> Approver:
        if sum(v is not None for v in (self.user, self.email, self.role)) != 1:
            raise ValueError("give exactly one of user, email or role")
        return self

    def stored(self) -> dict[str, str]:
        return self.model_dump(exclude_none=True)


class Step(BaseModel):
    model_config = ConfigDict(extra="forbid", alias_generator=to_camel, populate_by_name=True)

    name: Name
    mode: Literal["any", "all"] = Field(
        "any", description="any: one approval completes the step; all: every approver must."
    )
    approvers: list[Approver] = Field(min_length=1, max_length=MAX_APPROVERS_PER_STEP)
    due_in_hours: int | None = Field(
        None, ge=1, le=24 * 365, description="Escalate when the step waits longer."
    )
    escalate_to: Approver | None = Field(
        None, description="Added as an approver when the step is overdue or nobody can act."
    )

    def stored(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "mode": self.mode,
            "approvers": [a.stored() for a in self.approvers],
            "dueInHours": self.due_in_hours,
            "escalateTo": self.escalate_to.stored() if self.escalate_to else None,
        }


Steps = Annotated[list[Step], Field(min_length=1, max_length=MAX_STEPS)]
_STEPS = TypeAdapter(Steps)


class StepsInput:
    """Steps from the portal's editor: its form (as plain dicts) or its advanced JSON view."""

    @staticmethod
    def parse(text: str) -> list[dict[str, Any]]:
        """The stored steps, or pydantic's ValidationError naming the first bad field."""
        if len(text) > 200_000:
            raise ValueError("The steps are too long.")
        return [step.stored() for step in _STEPS.validate_json(text or "null")]

    @staticmethod
    def validate(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The stored steps from the form's dicts, or pydantic's ValidationError (every bad
        field, each with its location)."""
        return [step.stored() for step in _STEPS.validate_python(steps)]


Description = Annotated[str, StringConstraints(strip_whitespace=True, max_length=2000)]
Comment = Annotated[str, StringConstraints(strip_whitespace=True, max_length=2000)]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", alias_generator=to_camel, populate_by_name=True)


class DefinitionCreate(_Body):
    """POST /workflows."""

    name: Name
    description: Description | None = None
    steps: list[Step] = Field(min_length=1, max_length=MAX_STEPS)


class DefinitionPatch(_Body):
    """PATCH /workflows/{id}: the fields sent change; new steps make a new version, running
    instances keep theirs."""

    name: Name = absent()
    description: Description | None = None
    steps: list[Step] = Field(
        default=None,
        min_length=1,
        max_length=MAX_STEPS,
        json_schema_extra=lambda schema: schema.pop("default", None),
    )

    @field_validator("name", "steps", mode="before")
    @classmethod
    def _not_null(cls, value: Any) -> Any:
        return reject_null(value)


class InstanceCreate(_Body):
    """POST /workflows/instances: start a definition on a document."""

    definition_id: Id
    document_id: Id


class ActBody(_Body):
    """approve / reject / cancel: an optional comment, kept in the history."""

    comment: Comment | None = None


class DefinitionListQuery(PageQuery):
    """GET /workflows: newest first."""


class InstanceListQuery(PageQuery):
    """GET /workflows/instances: newest first."""

    model_config = ConfigDict(extra="forbid", alias_generator=to_camel, populate_by_name=True)

    state: Literal["pending", "in_progress", "approved", "rejected", "cancelled"] | None = None
    document_id: Id | None = None
    approver: Literal["me"] | None = Field(
        None, description="me: only instances the caller can act on now (needs a person)."
    )
    created_after: datetime | None = Field(None, description="createdAt >= this instant.")
    created_before: datetime | None = Field(None, description="createdAt < this instant.")

    @field_validator("created_after", "created_before")
    @classmethod
    def _assume_utc(cls, value: datetime | None) -> datetime | None:
        if value is not None and value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value


# --- responses ---------------------------------------------------------------------------------


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

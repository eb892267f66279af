"""The shape of a definition's steps as callers send them (the API's body and the portal's
JSON textarea both validate through here), and how they are stored (CONTRACT §9 names)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter, model_validator
from pydantic.alias_generators import to_camel

MAX_STEPS = 20
MAX_APPROVERS_PER_STEP = 50

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
Id = Annotated[str, StringConstraints(min_length=1, max_length=40)]


class Approver(BaseModel):
    """Exactly one of: a user id, a user's e-mail, or a role (every active user having it)."""

    model_config = ConfigDict(extra="forbid")

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
    """Steps typed as JSON text (the portal's editor)."""

    @staticmethod
    def parse(text: str) -> list[dict[str, Any]]:
        """The stored steps, or pydantic's ValidationError naming the first bad field."""
        if len(text) > 200_000:
            raise ValueError("The steps are too long.")
        return [step.stored() for step in _STEPS.validate_json(text or "null")]

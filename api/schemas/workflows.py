"""Request models of the workflows resource (camelCase on the wire); the responses are
services/workflows/wire.py's. Whether named people exist is the service's check."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator
from pydantic.alias_generators import to_camel

from api.pagination import PageQuery
from api.schemas.fields import absent, reject_null
from services.workflows.steps import MAX_STEPS, Id, Name, Step

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

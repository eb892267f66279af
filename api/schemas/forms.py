"""Request models of the forms resource (camelCase on the wire); the responses are
services/forms/wire.py's. What a form's schema may contain is the service's rule
(services/forms/schemas.py): here it is only "a JSON object"."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator
from pydantic.alias_generators import to_camel

from api.pagination import PageQuery
from api.schemas.fields import absent, reject_null

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
Description = Annotated[str, StringConstraints(strip_whitespace=True, max_length=2000)]
DefinitionId = Annotated[str, StringConstraints(min_length=1, max_length=40)]
MAX_INT32 = 2**31 - 1


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", alias_generator=to_camel, populate_by_name=True)


class FormCreate(_Body):
    """POST /forms."""

    name: Name
    description: Description | None = None
    schema_: dict[str, Any] = Field(
        alias="schema",
        description='JSON Schema 2020-12 with "type": "object" (docs/forms.md has the rules).',
    )
    status: Literal["draft", "published"] = Field("draft", description="draft or published.")
    workflow_definition_id: DefinitionId | None = Field(
        None, description="A workflow definition (wfd_…) started on every submission."
    )
    public: bool = Field(False, description="Give the published form a public page.")


class FormPatch(_Body):
    """PATCH /forms/{id}: only the fields sent change; a null workflowDefinitionId or
    description clears it. A new schema for a version that went live makes a new version."""

    name: Name = absent()
    description: Description | None = None
    schema_: dict[str, Any] = Field(
        default=None, alias="schema", json_schema_extra=lambda s: s.pop("default", None)
    )
    status: Literal["draft", "published", "archived"] = absent()
    workflow_definition_id: DefinitionId | None = None
    public: bool = absent()

    @field_validator("name", "schema_", "status", "public", mode="before")
    @classmethod
    def _not_null(cls, value: Any) -> Any:
        return reject_null(value)


class FormListQuery(PageQuery):
    """GET /forms: newest first."""

    status: Literal["draft", "published", "archived"] | None = None


class SubmissionCreate(_Body):
    """POST /forms/{id}/submissions as JSON. As multipart/form-data instead: a `data` part
    holding this JSON object, and one file part per file field, named after the field."""

    data: dict[str, Any] = Field(description="The answers: an object the form's schema accepts.")


class SubmissionFilterQuery(BaseModel):
    """The filters of a form's submissions (the list and the CSV export)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    created_after: datetime | None = Field(None, alias="createdAfter")
    created_before: datetime | None = Field(None, alias="createdBefore")
    submitted_by: Annotated[str, StringConstraints(max_length=60)] | None = Field(
        None, alias="submittedBy", description='A key or user id, or "public".'
    )
    form_version: int | None = Field(None, alias="formVersion", ge=1, le=MAX_INT32)

    @field_validator("created_after", "created_before")
    @classmethod
    def _utc(cls, value: datetime | None) -> datetime | None:
        """A time without an offset is read as UTC."""
        if value is not None and value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value


class SubmissionListQuery(SubmissionFilterQuery, PageQuery):
    """GET /forms/{id}/submissions: newest first."""

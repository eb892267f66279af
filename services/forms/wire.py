"""Forms and submissions as they go over the wire, both ways (CONTRACT §9; camelCase): one
pydantic model each, which validates the requests or produces the JSON (API bodies, the
form.submission.created event), and describes it in OpenAPI. What a form's schema may contain
is services/forms/schemas.py's rule: here (and in the document) it is a JSON object whose
"type" is "object"."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter, field_validator
from pydantic.alias_generators import to_camel

from models import Form, FormSubmission
from services.core.wire import PageQuery, Timestamp, Wire, absent, reject_null
from services.forms.schemas import DIALECT

# --- requests ----------------------------------------------------------------------------------


Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
Description = Annotated[str, StringConstraints(strip_whitespace=True, max_length=2000)]
DefinitionId = Annotated[str, StringConstraints(min_length=1, max_length=40)]
MAX_INT32 = 2**31 - 1


# What every form's schema must say at its top (services/forms/schemas.check_schema has the
# rest: a valid JSON Schema without the refused keywords, within the size limits).
FORM_SCHEMA_TOP = {
    "required": ["type"],
    "properties": {"type": {"const": "object"}, "$schema": {"const": DIALECT}},
}


def _patched_schema(schema: dict[str, Any]) -> None:
    """A PATCH's `schema`: optional, never null (no default shown), the same top rules."""
    schema.pop("default", None)
    schema.update(FORM_SCHEMA_TOP)


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", alias_generator=to_camel, populate_by_name=True)


class FormCreate(_Body):
    """POST /forms."""

    name: Name
    description: Description | None = None
    schema_: dict[str, Any] = Field(
        alias="schema",
        description='JSON Schema 2020-12 with "type": "object" (docs/forms.md has the rules).',
        json_schema_extra=FORM_SCHEMA_TOP,
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
        default=None,
        alias="schema",
        json_schema_extra=_patched_schema,
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


# --- responses ---------------------------------------------------------------------------------


class FormOut(Wire):
    id: str
    name: str
    description: str | None
    schema_: dict[str, Any] = Field(
        validation_alias="schema",
        serialization_alias="schema",
        description="JSON Schema 2020-12 of the fields (type object).",
    )
    status: str = Field(description="draft, published or archived.")
    version: int = Field(
        description="Increments when the schema of a version that went live changes."
    )
    workflow_definition_id: str | None = Field(description="Started on every submission.")
    public: bool = Field(description="Published public forms have a page at publicUrl.")
    public_url: str | None = Field(description="Path of the public page (when public).")
    created_at: Timestamp
    updated_at: Timestamp


class SubmissionOut(Wire):
    id: str
    form_id: str
    form_version: int = Field(description="The version of the form this submission answered.")
    data: dict[str, Any]
    submitted_by: str = Field(description='The key or user id, or "public".')
    document_ids: list[str] = Field(description="Documents made of the submission's files.")
    workflow_instance_id: str | None
    created_at: Timestamp


_FORMS = TypeAdapter(list[FormOut])
_SUBMISSIONS = TypeAdapter(list[SubmissionOut])


def public_path(form: Form) -> str | None:
    return f"/f/{form.id}" if form.public else None


def _form_fields(form: Form) -> dict[str, Any]:
    return {
        "id": form.id,
        "name": form.name,
        "description": form.description,
        "schema": form.schema,
        "status": form.status,
        "version": form.version,
        "workflow_definition_id": form.workflow_definition_id,
        "public": form.public,
        "public_url": public_path(form),
        "created_at": form.created_at,
        "updated_at": form.updated_at,
    }


def form_data(form: Form) -> dict[str, Any]:
    return FormOut.model_validate(_form_fields(form)).model_dump(mode="json", by_alias=True)


def forms_data(rows: list[Form]) -> list[dict[str, Any]]:
    models = _FORMS.validate_python([_form_fields(f) for f in rows])
    return _FORMS.dump_python(models, mode="json", by_alias=True)


def submission_data(submission: FormSubmission) -> dict[str, Any]:
    return SubmissionOut.model_validate(submission).model_dump(mode="json", by_alias=True)


def submissions_data(rows: list[FormSubmission]) -> list[dict[str, Any]]:
    models = _SUBMISSIONS.validate_python(rows, from_attributes=True)
    return _SUBMISSIONS.dump_python(models, mode="json", by_alias=True)

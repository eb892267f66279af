"""Forms and submissions as they go over the wire (CONTRACT §9): one pydantic model each,
which produces the JSON (API bodies, the form.submission.created event) and describes it in
OpenAPI."""

from __future__ import annotations

from typing import Any

from pydantic import Field, TypeAdapter

from models import Form, FormSubmission
from services.core.wire import Timestamp, Wire


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

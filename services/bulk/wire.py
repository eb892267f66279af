"""A bulk edit and its job as they go over the wire (CONTRACT §10; camelCase): the request
`POST /documents/bulk` takes (the documents by id or by the documents list's filters, and up
to ten operations) and the job `GET /jobs/{id}` answers."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic.alias_generators import to_camel

from models.bulk import Job
from services.core.wire import Timestamp, Wire
from services.documents.wire import (
    MAX_METADATA_KEYS,
    MAX_TAGS,
    CustomFieldValues,
    DocumentQuery,
    MetadataKey,
    MetadataValue,
    Tag,
)

# Documents named in one request (a JSON body stays under DMS_MAX_JSON_BYTES), documents a
# filter may select, and operations in one request.
MAX_DOCUMENT_IDS = 10_000
MAX_DOCUMENTS = 100_000
MAX_OPERATIONS = 10
DOCUMENT_ID = Annotated[str, Field(min_length=1, max_length=40)]

_CONFIG = ConfigDict(extra="forbid", alias_generator=to_camel, populate_by_name=True)


class TagsOperation(BaseModel):
    model_config = _CONFIG
    op: Literal["addTags", "removeTags"]
    tags: list[Tag] = Field(min_length=1, max_length=MAX_TAGS)


class MetadataOperation(BaseModel):
    """Merged into each document's metadata as PATCH merges it: null removes a key."""

    model_config = _CONFIG
    op: Literal["setMetadata"]
    metadata: dict[MetadataKey, MetadataValue | None] = Field(
        min_length=1, max_length=MAX_METADATA_KEYS
    )


class CustomFieldsOperation(BaseModel):
    model_config = _CONFIG
    op: Literal["setCustomFields"]
    custom_fields: CustomFieldValues


class TrashOperation(BaseModel):
    model_config = _CONFIG
    op: Literal["trash"]


class RestoreOperation(BaseModel):
    model_config = _CONFIG
    op: Literal["restore"]


class StartWorkflowOperation(BaseModel):
    """Starts the definition on each document that has no pending instance of it."""

    model_config = _CONFIG
    op: Literal["startWorkflow"]
    definition_id: str = Field(min_length=1, max_length=40, description="wfd_….")


Operation = Annotated[
    TagsOperation
    | MetadataOperation
    | CustomFieldsOperation
    | TrashOperation
    | RestoreOperation
    | StartWorkflowOperation,
    Field(discriminator="op"),
]


_LISTS = ("status", "tag")


class DocumentSelection(DocumentQuery):
    """The documents list's filters (`GET /documents`' parameters but its page: no `limit`,
    no `cursor`; `sort` is accepted and does not matter), as JSON: `status` and `tag` a
    string or a list of strings, `metadata` an object of exact values. A saved view is
    refused rather than applied: a filter it left out would select every document."""

    @model_validator(mode="before")
    @classmethod
    def _no_page(cls, raw: Any) -> Any:
        if isinstance(raw, dict):
            for name in ("limit", "cursor", "savedView", "saved_view"):
                if name in raw:
                    raise ValueError(f"{name} is not a filter (give the view's filters)")
            raw = {k: [v] if k in _LISTS and isinstance(v, str) else v for k, v in raw.items()}
        return raw


class BulkEdit(BaseModel):
    """POST /documents/bulk: `documentIds` or `filter` (one of them), and `operations`,
    applied in order to each document."""

    model_config = _CONFIG

    document_ids: list[DOCUMENT_ID] | None = Field(
        None,
        min_length=1,
        max_length=MAX_DOCUMENT_IDS,
        description="The documents (doc_…); an id the tenant does not have is that "
        "document's NOT_FOUND in the job's errors.",
    )
    filter: DocumentSelection | None = Field(
        None,
        description="The documents list's filters (its query parameters as a JSON object): "
        f"the documents matching them when the job starts, at most {MAX_DOCUMENTS:,}.",
    )
    operations: list[Operation] = Field(min_length=1, max_length=MAX_OPERATIONS)

    @model_validator(mode="after")
    def _one_selection(self) -> BulkEdit:
        if (self.document_ids is None) == (self.filter is None):
            raise ValueError("give documentIds or filter, one of them")
        return self

    def stored(self) -> dict[str, Any]:
        """What the job keeps of the request: JSON, as the client named it."""
        return self.model_dump(mode="json", by_alias=True, exclude_unset=True)


# --- responses ---------------------------------------------------------------------------------


class JobErrorOut(Wire):
    document_id: str = Field(description="The document (doc_…) the operations failed on.")
    code: str = Field(description="NOT_FOUND, CONFLICT, VALIDATION_ERROR, …")
    message: str


class JobOut(Wire):
    id: str
    type: str = Field(
        description="What the job does: `documents.bulk`, or `matching.apply` (a matching "
        "rule run over existing documents)."
    )
    status: Literal["queued", "running", "succeeded", "failed", "partially_failed"]
    total: int = Field(description="The documents the job works on (0 until it starts).")
    done: int = Field(description="Documents finished so far, failed ones included.")
    failed: int = Field(description="Documents the operations failed on.")
    errors: list[JobErrorOut] = Field(description="The first 100 failures.")
    created_at: Timestamp
    finished_at: Timestamp | None


def job_data(job: Job) -> dict[str, Any]:
    fields = {name: getattr(job, name) for name in JobOut.model_fields if name != "errors"}
    errors = [
        {"document_id": e["documentId"], "code": e["code"], "message": e["message"]}
        for e in job.errors or []
    ]
    return JobOut.model_validate({**fields, "errors": errors}).model_dump(
        mode="json", by_alias=True
    )

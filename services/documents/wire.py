"""The document and its versions as they go over the wire, both ways (camelCase): the upload's
form fields, the PATCH body and the queries validate requests; one pydantic model per answer
both produces the JSON (the API's bodies and the events' data) and describes it (the OpenAPI
document), so the two cannot drift apart. Answers are built from the ORM rows by attribute;
timestamps are RFC 3339 UTC to the second (CONTRACT §1)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    TypeAdapter,
    field_validator,
)
from pydantic.alias_generators import to_camel
from sqlalchemy import Row, select

from extensions import db
from models.base import in_tenant
from models.customfields import CustomField, CustomFieldValue
from models.documents import Document, DocumentStatus, DocumentVersion, SourceType
from models.workflows import WorkflowInstance
from services.core import transaction
from services.core.wire import PageQuery, Timestamp, Wire, absent, reject_null
from services.documents.filters import METADATA_KEY_RE, DocumentFilters

# --- requests ----------------------------------------------------------------------------------


MAX_TAGS = 50
MAX_METADATA_KEYS = 50  # on a document, after a PATCH merges into it too
MAX_CUSTOM_FIELDS = 100  # values set by one request
MAX_CUSTOM_FIELD_QUERY = 8192  # characters of customFieldQuery
# Integers the database stores as 32-bit (version numbers): larger ones are a 400, not a 500.
MAX_INT32 = 2**31 - 1

Tag = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100)]
MetadataKey = Annotated[str, StringConstraints(pattern=f"^{METADATA_KEY_RE.pattern}$")]
MetadataValue = Annotated[str, StringConstraints(max_length=1000)]
Title = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=500)]


class _Camel(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)


def _unique_tags(tags: list[str]) -> list[str]:
    if len(tags) > MAX_TAGS:
        raise ValueError(f"at most {MAX_TAGS} tags")
    return list(dict.fromkeys(tags))


CustomFieldValues = Annotated[
    dict[str, Any],
    Field(
        max_length=MAX_CUSTOM_FIELDS,
        title="Custom Fields",
        examples=[{}],  # what the reference page's try-out sends unless told otherwise
        description="Custom field values by field id (cfd_…): the value in the field's data "
        "type, or null to remove it (docs/customfields.md).",
    ),
]


class UploadForm(_Camel):
    """The form fields of an upload beside the `file` part."""

    model_config = ConfigDict(extra="forbid", alias_generator=to_camel, populate_by_name=True)

    # The examples fill /docs's Try it out (Swagger UI writes "string" where none is given).
    title: Title | None = Field(
        None, description="Default: the file's name.", examples=["Q3 report"]
    )
    tags: list[Tag] = Field(
        default_factory=list,
        description=f"Up to {MAX_TAGS}; repeat the part or comma-separate.",
        examples=[["finance", "q3"]],
    )
    metadata: dict[MetadataKey, MetadataValue] = Field(
        default_factory=dict,
        description="A JSON object of strings; keys match "
        f"`{METADATA_KEY_RE.pattern}`, up to {MAX_METADATA_KEYS} of them.",
        examples=[{"dept": "sales"}],
        json_schema_extra={"maxProperties": MAX_METADATA_KEYS},
    )
    custom_fields: CustomFieldValues = Field(default_factory=dict)

    _tags = field_validator("tags")(_unique_tags)

    @field_validator("metadata")
    @classmethod
    def _few_keys(cls, value: dict[str, str]) -> dict[str, str]:
        if len(value) > MAX_METADATA_KEYS:
            raise ValueError(f"at most {MAX_METADATA_KEYS} metadata keys")
        return value


class DocumentPatch(_Camel):
    """PATCH body: every field optional. `metadata` merges (RFC 7386): null removes a key."""

    model_config = ConfigDict(extra="forbid", alias_generator=to_camel, populate_by_name=True)

    # Optional but never null (null is refused below): the schema must not say "nullable".
    title: Title = absent()
    tags: list[Tag] = absent()
    metadata: dict[MetadataKey, MetadataValue | None] = absent(maxProperties=MAX_METADATA_KEYS)
    status: DocumentStatus = absent()
    custom_fields: CustomFieldValues = absent()

    @field_validator("tags")
    @classmethod
    def _tags(cls, value: list[str] | None) -> list[str] | None:
        return None if value is None else _unique_tags(value)

    @field_validator("title", "tags", "status", "metadata", "custom_fields", mode="before")
    @classmethod
    def _not_null(cls, value: Any) -> Any:
        return reject_null(value)


class DocumentQuery(DocumentFilters):
    """The documents list's filters: those of CONTRACT §4 and customFieldQuery (the list
    reads them as parameters, a bulk edit's or a rule's `filter` as a JSON object)."""

    custom_field_query: str | None = Field(
        None,
        min_length=1,
        max_length=MAX_CUSTOM_FIELD_QUERY,
        description="A JSON filter on custom field values in paperless-ngx's shape: "
        '[field, op, value], ["AND"|"OR", [query, …]] or ["NOT", query]; ops exact, in, '
        "isnull, exists, icontains, gt, gte, lt, lte, range; depth ≤ 10, ≤ 20 conditions "
        "(docs/customfields.md).",
    )

    def binding(self) -> dict[str, Any]:
        return {**super().binding(), "customFieldQuery": self.custom_field_query}


class DocumentListQuery(DocumentQuery, PageQuery):
    """GET /documents: the filters, limit and cursor, and a saved view."""

    saved_view: str | None = Field(
        None,
        max_length=40,
        description="Apply this saved view (svw_…): its filters and sort, under the "
        "parameters given beside it, which win.",
    )


class ContentQuery(_Camel):
    model_config = ConfigDict(extra="forbid")

    version: int | None = Field(
        None, ge=1, le=MAX_INT32, description="Serve this version (default: current)."
    )


class VersionListQuery(PageQuery):
    """GET /documents/{id}/versions: newest first."""


# --- responses ---------------------------------------------------------------------------------


class DocumentWorkflowOut(BaseModel):
    """The document's latest workflow instance (GET /workflows/instances/{id} has the rest)."""

    id: str
    state: str


def thumbnail_path(document_id: str) -> str:
    """The document's thumbnail (api/thumbnails.py), a path on the API's host."""
    return f"/api/v1/documents/{document_id}/thumbnail"


class DocumentCustomFieldOut(BaseModel):
    """One custom field value of a document."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)

    field_id: str
    name: str
    value: Any = Field(
        description="In the field's data type: a string, an integer, a number, "
        '{"currency", "amount"} (monetary), a boolean, "YYYY-MM-DD" (date), an option id '
        "(select) or a list of document ids (documentLink)."
    )


class DocumentSourceOut(BaseModel):
    """Where the document came from. `type` says how; the rest depends on it: form adds
    `formId` and `submissionId`, mail `accountId`, `messageId`, `from` and `subject`, folder
    `path`; import keeps what the archive's document said."""

    model_config = ConfigDict(extra="allow")

    type: SourceType


class DocumentOut(Wire):
    id: str
    title: str
    filename: str
    content_type: str
    size: int
    sha256: str
    status: DocumentStatus
    tags: list[str] = Field(validation_alias="tag_names")
    source: DocumentSourceOut
    metadata: dict[str, str] = Field(validation_alias="meta")
    text_status: str
    # Why there is no text (`limit_exceeded: …` and others), and whether a budget cut it.
    text_error: str | None
    text_truncated: bool
    current_version: int
    created_by: str | None
    created_at: Timestamp
    updated_at: Timestamp
    deleted_at: Timestamp | None
    workflow: DocumentWorkflowOut | None = Field(
        None, description="The latest approval workflow started on the document, if any."
    )
    custom_fields: list[DocumentCustomFieldOut] = Field(
        default_factory=list, description="The document's custom field values, by field name."
    )
    thumbnail_url: str = Field(
        validation_alias="id",
        description="Where the current version's thumbnail is (WebP; 409 until it is made).",
    )

    @field_validator("thumbnail_url")
    @classmethod
    def _thumbnail_path(cls, document_id: str) -> str:
        return thumbnail_path(document_id)


class DocumentVersionOut(Wire):
    id: str
    document_id: str
    number: int
    filename: str
    content_type: str
    size: int
    sha256: str
    created_by: str | None
    created_at: Timestamp


_DOCUMENTS = TypeAdapter(list[DocumentOut])
# The memo of documents' newest workflows and custom field values (prefetch_extras).
_EXTRAS = "document-extras"
_VERSIONS = TypeAdapter(list[DocumentVersionOut])


def document_data(document: Document, *, fresh: bool = False) -> dict[str, Any]:
    return documents_data([document], fresh=fresh)[0]


def documents_data(documents: list[Document], *, fresh: bool = False) -> list[dict[str, Any]]:
    """The documents' wire shape. `fresh`: documents being created in this unit of work with
    nothing attached yet (no workflow, no custom field values), which need no query."""
    out = _DOCUMENTS.dump_python(
        _DOCUMENTS.validate_python(documents, from_attributes=True), mode="json", by_alias=True
    )
    latest, values = {}, {}
    if documents and not fresh:
        tenant_id, ids = documents[0].tenant_id, [d.id for d in documents]
        known = transaction.memo((_EXTRAS, tenant_id), dict)
        if all(i in known for i in ids):
            latest = {i: known[i][0] for i in ids}
            values = {i: known[i][1] for i in ids}
        else:
            latest = _latest_workflows(tenant_id, ids)
            values = custom_field_values(tenant_id, ids)
    for item in out:
        item["workflow"] = latest.get(item["id"])
        item["customFields"] = values.get(item["id"], [])
    return out


def prefetch_extras(tenant_id: str, document_ids: list[str]) -> None:
    """Read the documents' newest workflows and custom field values once for the lot, for
    the payloads of their events, inside a `transaction.memoized` batch whose work changes
    neither (a bulk edit of tags, metadata, trash or restore)."""
    known = transaction.memo((_EXTRAS, tenant_id), dict)
    latest = _latest_workflows(tenant_id, document_ids)
    values = custom_field_values(tenant_id, document_ids)
    for document_id in document_ids:
        known[document_id] = (latest.get(document_id), values.get(document_id, []))


def custom_field_values(tenant_id: str, document_ids: list[str]) -> dict[str, list[dict]]:
    """The documents' custom field values (of one tenant), each document's by field name."""
    rows = db.session.execute(
        select(
            CustomFieldValue.document_id,
            CustomField.id,
            CustomField.name,
            CustomFieldValue.value_json,
        )
        .join(CustomField, CustomField.id == CustomFieldValue.field_id)
        .where(
            CustomFieldValue.tenant_id == tenant_id,
            CustomFieldValue.document_id.in_(document_ids),
        )
        .order_by(CustomField.name_key, CustomField.id)
    )
    found: dict[str, list[dict]] = {}
    for document_id, field_id, name, value in rows:
        item = {"fieldId": field_id, "name": name, "value": json.loads(value)}
        found.setdefault(document_id, []).append(item)
    return found


def listed_documents_json(rows: Sequence[Row]) -> str:
    """listing.list_page's rows as the JSON array documents_data would give: the database
    wrote each object (listing._document_json), so this only joins them. Must stay field for
    field equal to DocumentOut (tests/documents/test_list_serialiser.py)."""
    return "[" + ",".join([row.document for row in rows]) + "]"


def _latest_workflows(tenant_id: str, document_ids: list[str]) -> dict[str, dict[str, str]]:
    """One query for the page (of one tenant's documents): each document's newest workflow
    instance (ids sort by time)."""
    rows = db.session.execute(
        select(WorkflowInstance.subject_id, WorkflowInstance.id, WorkflowInstance.state)
        .where(
            WorkflowInstance.subject_type == "document",
            WorkflowInstance.subject_id.in_(document_ids),
            in_tenant(WorkflowInstance, tenant_id),
        )
        .order_by(WorkflowInstance.id)
    )
    return {subject: {"id": ident, "state": state} for subject, ident, state in rows}


def version_data(version: DocumentVersion) -> dict[str, Any]:
    return DocumentVersionOut.model_validate(version).model_dump(mode="json", by_alias=True)


def versions_data(versions: list[DocumentVersion]) -> list[dict[str, Any]]:
    return _VERSIONS.dump_python(
        _VERSIONS.validate_python(versions, from_attributes=True), mode="json", by_alias=True
    )

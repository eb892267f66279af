"""The document and its versions as they go over the wire: one pydantic model each, which
both produces the JSON (the API's bodies and the events' data) and describes it (the OpenAPI
document), so the two cannot drift apart. Built from the ORM rows by attribute; timestamps
are RFC 3339 UTC to the second (CONTRACT §1)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, Field, TypeAdapter
from sqlalchemy import Row, select

from extensions import db
from models.base import in_tenant
from models.documents import Document, DocumentStatus, DocumentVersion
from models.workflows import WorkflowInstance
from services.core.wire import Timestamp, Wire


class DocumentWorkflowOut(BaseModel):
    """The document's latest workflow instance (GET /workflows/instances/{id} has the rest)."""

    id: str
    state: str


class DocumentOut(Wire):
    id: str
    title: str
    filename: str
    content_type: str
    size: int
    sha256: str
    status: DocumentStatus
    tags: list[str] = Field(validation_alias="tag_names")
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
_VERSIONS = TypeAdapter(list[DocumentVersionOut])


def document_data(document: Document) -> dict[str, Any]:
    return documents_data([document])[0]


def documents_data(documents: list[Document]) -> list[dict[str, Any]]:
    out = _DOCUMENTS.dump_python(
        _DOCUMENTS.validate_python(documents, from_attributes=True), mode="json", by_alias=True
    )
    latest = {}
    if documents:
        latest = _latest_workflows(documents[0].tenant_id, [d.id for d in documents])
    for item in out:
        item["workflow"] = latest.get(item["id"])
    return out


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

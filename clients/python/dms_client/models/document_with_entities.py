from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.document_status import DocumentStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.document_custom_field import DocumentCustomField
    from ..models.document_entity import DocumentEntity
    from ..models.document_source import DocumentSource
    from ..models.document_with_entities_metadata import DocumentWithEntitiesMetadata
    from ..models.document_workflow import DocumentWorkflow


T = TypeVar("T", bound="DocumentWithEntities")


@_attrs_define
class DocumentWithEntities:
    """
    Attributes:
        content_type (str):
        created_at (datetime.datetime):
        created_by (None | str):
        current_version (int):
        deleted_at (datetime.datetime | None):
        filename (str):
        id (str):
        metadata (DocumentWithEntitiesMetadata):
        sha256 (str):
        size (int):
        source (DocumentSource): Where the document came from. `type` says how; the rest depends on it: form adds
            `formId` and `submissionId`, mail `accountId`, `messageId`, `from` and `subject`, folder
            `path`; import keeps what the archive's document said.
        status (DocumentStatus):
        tags (list[str]):
        text_error (None | str):
        text_status (str):
        text_truncated (bool):
        thumbnail_url (str): Where the current version's thumbnail is (WebP; 409 until it is made).
        title (str):
        updated_at (datetime.datetime):
        custom_fields (list[DocumentCustomField] | Unset): The document's custom field values, by field name.
        entities (list[DocumentEntity] | None | Unset): The entities its text mentions, most often first (for callers
            with knowledge-graph:read; null for others).
        workflow (DocumentWorkflow | None | Unset): The latest approval workflow started on the document, if any.
    """

    content_type: str
    created_at: datetime.datetime
    created_by: None | str
    current_version: int
    deleted_at: datetime.datetime | None
    filename: str
    id: str
    metadata: DocumentWithEntitiesMetadata
    sha256: str
    size: int
    source: DocumentSource
    status: DocumentStatus
    tags: list[str]
    text_error: None | str
    text_status: str
    text_truncated: bool
    thumbnail_url: str
    title: str
    updated_at: datetime.datetime
    custom_fields: list[DocumentCustomField] | Unset = UNSET
    entities: list[DocumentEntity] | None | Unset = UNSET
    workflow: DocumentWorkflow | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.document_workflow import DocumentWorkflow

        content_type = self.content_type

        created_at = self.created_at.isoformat()

        created_by: None | str
        created_by = self.created_by

        current_version = self.current_version

        deleted_at: None | str
        if isinstance(self.deleted_at, datetime.datetime):
            deleted_at = self.deleted_at.isoformat()
        else:
            deleted_at = self.deleted_at

        filename = self.filename

        id = self.id

        metadata = self.metadata.to_dict()

        sha256 = self.sha256

        size = self.size

        source = self.source.to_dict()

        status = self.status.value

        tags = self.tags

        text_error: None | str
        text_error = self.text_error

        text_status = self.text_status

        text_truncated = self.text_truncated

        thumbnail_url = self.thumbnail_url

        title = self.title

        updated_at = self.updated_at.isoformat()

        custom_fields: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.custom_fields, Unset):
            custom_fields = []
            for custom_fields_item_data in self.custom_fields:
                custom_fields_item = custom_fields_item_data.to_dict()
                custom_fields.append(custom_fields_item)

        entities: list[dict[str, Any]] | None | Unset
        if isinstance(self.entities, Unset):
            entities = UNSET
        elif isinstance(self.entities, list):
            entities = []
            for entities_type_0_item_data in self.entities:
                entities_type_0_item = entities_type_0_item_data.to_dict()
                entities.append(entities_type_0_item)

        else:
            entities = self.entities

        workflow: dict[str, Any] | None | Unset
        if isinstance(self.workflow, Unset):
            workflow = UNSET
        elif isinstance(self.workflow, DocumentWorkflow):
            workflow = self.workflow.to_dict()
        else:
            workflow = self.workflow

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "contentType": content_type,
                "createdAt": created_at,
                "createdBy": created_by,
                "currentVersion": current_version,
                "deletedAt": deleted_at,
                "filename": filename,
                "id": id,
                "metadata": metadata,
                "sha256": sha256,
                "size": size,
                "source": source,
                "status": status,
                "tags": tags,
                "textError": text_error,
                "textStatus": text_status,
                "textTruncated": text_truncated,
                "thumbnailUrl": thumbnail_url,
                "title": title,
                "updatedAt": updated_at,
            }
        )
        if custom_fields is not UNSET:
            field_dict["customFields"] = custom_fields
        if entities is not UNSET:
            field_dict["entities"] = entities
        if workflow is not UNSET:
            field_dict["workflow"] = workflow

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.document_custom_field import DocumentCustomField
        from ..models.document_entity import DocumentEntity
        from ..models.document_source import DocumentSource
        from ..models.document_with_entities_metadata import (
            DocumentWithEntitiesMetadata,
        )
        from ..models.document_workflow import DocumentWorkflow

        d = dict(src_dict)
        content_type = d.pop("contentType")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_created_by(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        created_by = _parse_created_by(d.pop("createdBy"))

        current_version = d.pop("currentVersion")

        def _parse_deleted_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                deleted_at_type_0 = datetime.datetime.fromisoformat(data)

                return deleted_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        deleted_at = _parse_deleted_at(d.pop("deletedAt"))

        filename = d.pop("filename")

        id = d.pop("id")

        metadata = DocumentWithEntitiesMetadata.from_dict(d.pop("metadata"))

        sha256 = d.pop("sha256")

        size = d.pop("size")

        source = DocumentSource.from_dict(d.pop("source"))

        status = DocumentStatus(d.pop("status"))

        tags = cast(list[str], d.pop("tags"))

        def _parse_text_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        text_error = _parse_text_error(d.pop("textError"))

        text_status = d.pop("textStatus")

        text_truncated = d.pop("textTruncated")

        thumbnail_url = d.pop("thumbnailUrl")

        title = d.pop("title")

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        _custom_fields = d.pop("customFields", UNSET)
        custom_fields: list[DocumentCustomField] | Unset = UNSET
        if _custom_fields is not UNSET:
            custom_fields = []
            for custom_fields_item_data in _custom_fields:
                custom_fields_item = DocumentCustomField.from_dict(
                    custom_fields_item_data
                )

                custom_fields.append(custom_fields_item)

        def _parse_entities(data: object) -> list[DocumentEntity] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                entities_type_0 = []
                _entities_type_0 = data
                for entities_type_0_item_data in _entities_type_0:
                    entities_type_0_item = DocumentEntity.from_dict(
                        entities_type_0_item_data
                    )

                    entities_type_0.append(entities_type_0_item)

                return entities_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[DocumentEntity] | None | Unset, data)

        entities = _parse_entities(d.pop("entities", UNSET))

        def _parse_workflow(data: object) -> DocumentWorkflow | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                workflow_type_0 = DocumentWorkflow.from_dict(data)

                return workflow_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DocumentWorkflow | None | Unset, data)

        workflow = _parse_workflow(d.pop("workflow", UNSET))

        document_with_entities = cls(
            content_type=content_type,
            created_at=created_at,
            created_by=created_by,
            current_version=current_version,
            deleted_at=deleted_at,
            filename=filename,
            id=id,
            metadata=metadata,
            sha256=sha256,
            size=size,
            source=source,
            status=status,
            tags=tags,
            text_error=text_error,
            text_status=text_status,
            text_truncated=text_truncated,
            thumbnail_url=thumbnail_url,
            title=title,
            updated_at=updated_at,
            custom_fields=custom_fields,
            entities=entities,
            workflow=workflow,
        )

        document_with_entities.additional_properties = d
        return document_with_entities

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties

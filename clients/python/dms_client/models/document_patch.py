from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.document_status import DocumentStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.document_patch_custom_fields import DocumentPatchCustomFields
    from ..models.document_patch_metadata import DocumentPatchMetadata


T = TypeVar("T", bound="DocumentPatch")


@_attrs_define
class DocumentPatch:
    """PATCH body: every field optional. `metadata` merges (RFC 7386): null removes a key.

    Attributes:
        custom_fields (DocumentPatchCustomFields | Unset): Custom field values by field id (cfd_…): the value in the
            field's data type, or null to remove it (docs/customfields.md).
        metadata (DocumentPatchMetadata | Unset):
        status (DocumentStatus | Unset):
        tags (list[str] | Unset):
        title (str | Unset):
    """

    custom_fields: DocumentPatchCustomFields | Unset = UNSET
    metadata: DocumentPatchMetadata | Unset = UNSET
    status: DocumentStatus | Unset = UNSET
    tags: list[str] | Unset = UNSET
    title: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        custom_fields: dict[str, Any] | Unset = UNSET
        if not isinstance(self.custom_fields, Unset):
            custom_fields = self.custom_fields.to_dict()

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        tags: list[str] | Unset = UNSET
        if not isinstance(self.tags, Unset):
            tags = self.tags

        title = self.title

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if custom_fields is not UNSET:
            field_dict["customFields"] = custom_fields
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if status is not UNSET:
            field_dict["status"] = status
        if tags is not UNSET:
            field_dict["tags"] = tags
        if title is not UNSET:
            field_dict["title"] = title

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.document_patch_custom_fields import DocumentPatchCustomFields
        from ..models.document_patch_metadata import DocumentPatchMetadata

        d = dict(src_dict)
        _custom_fields = d.pop("customFields", UNSET)
        custom_fields: DocumentPatchCustomFields | Unset
        if isinstance(_custom_fields, Unset):
            custom_fields = UNSET
        else:
            custom_fields = DocumentPatchCustomFields.from_dict(_custom_fields)

        _metadata = d.pop("metadata", UNSET)
        metadata: DocumentPatchMetadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = DocumentPatchMetadata.from_dict(_metadata)

        _status = d.pop("status", UNSET)
        status: DocumentStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = DocumentStatus(_status)

        tags = cast(list[str], d.pop("tags", UNSET))

        title = d.pop("title", UNSET)

        document_patch = cls(
            custom_fields=custom_fields,
            metadata=metadata,
            status=status,
            tags=tags,
            title=title,
        )

        return document_patch

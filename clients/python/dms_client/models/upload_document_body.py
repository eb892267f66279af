from __future__ import annotations

import json
from collections.abc import Mapping
from io import BytesIO
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from .. import types
from ..types import UNSET, File, Unset

if TYPE_CHECKING:
    from ..models.upload_document_body_custom_fields import (
        UploadDocumentBodyCustomFields,
    )
    from ..models.upload_document_body_metadata import UploadDocumentBodyMetadata


T = TypeVar("T", bound="UploadDocumentBody")


@_attrs_define
class UploadDocumentBody:
    """
    Attributes:
        file (File): The document's content (the type is read from it).
        custom_fields (UploadDocumentBodyCustomFields | Unset): Custom field values by field id (cfd_…): the value in
            the field's data type, or null to remove it (docs/customfields.md).
        metadata (UploadDocumentBodyMetadata | Unset): A JSON object of strings; keys match `[A-Za-z0-9_.-]{1,64}`, up
            to 50 of them.
        tags (list[str] | Unset): Up to 50; repeat the part or comma-separate.
        title (str | Unset): Default: the file's name.
    """

    file: File
    custom_fields: UploadDocumentBodyCustomFields | Unset = UNSET
    metadata: UploadDocumentBodyMetadata | Unset = UNSET
    tags: list[str] | Unset = UNSET
    title: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        file = self.file.to_tuple()

        custom_fields: dict[str, Any] | Unset = UNSET
        if not isinstance(self.custom_fields, Unset):
            custom_fields = self.custom_fields.to_dict()

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        tags: list[str] | Unset = UNSET
        if not isinstance(self.tags, Unset):
            tags = self.tags

        title = self.title

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "file": file,
            }
        )
        if custom_fields is not UNSET:
            field_dict["customFields"] = custom_fields
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if tags is not UNSET:
            field_dict["tags"] = tags
        if title is not UNSET:
            field_dict["title"] = title

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("file", self.file.to_tuple()))

        if not isinstance(self.custom_fields, Unset):
            files.append(
                (
                    "customFields",
                    (
                        None,
                        json.dumps(self.custom_fields.to_dict()).encode(),
                        "application/json",
                    ),
                )
            )

        if not isinstance(self.metadata, Unset):
            files.append(
                (
                    "metadata",
                    (
                        None,
                        json.dumps(self.metadata.to_dict()).encode(),
                        "application/json",
                    ),
                )
            )

        if not isinstance(self.tags, Unset):
            for tags_item_element in self.tags:
                files.append(
                    ("tags", (None, str(tags_item_element).encode(), "text/plain"))
                )

        if not isinstance(self.title, Unset):
            files.append(("title", (None, str(self.title).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.upload_document_body_custom_fields import (
            UploadDocumentBodyCustomFields,
        )
        from ..models.upload_document_body_metadata import UploadDocumentBodyMetadata

        d = dict(src_dict)
        file = File(payload=BytesIO(d.pop("file")))

        _custom_fields = d.pop("customFields", UNSET)
        custom_fields: UploadDocumentBodyCustomFields | Unset
        if isinstance(_custom_fields, Unset):
            custom_fields = UNSET
        else:
            custom_fields = UploadDocumentBodyCustomFields.from_dict(_custom_fields)

        _metadata = d.pop("metadata", UNSET)
        metadata: UploadDocumentBodyMetadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = UploadDocumentBodyMetadata.from_dict(_metadata)

        tags = cast(list[str], d.pop("tags", UNSET))

        title = d.pop("title", UNSET)

        upload_document_body = cls(
            file=file,
            custom_fields=custom_fields,
            metadata=metadata,
            tags=tags,
            title=title,
        )

        return upload_document_body

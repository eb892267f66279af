from __future__ import annotations

import json
from collections.abc import Mapping
from io import BytesIO
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from .. import types
from ..types import UNSET, File, Unset

if TYPE_CHECKING:
    from ..models.upload_document_body_metadata import UploadDocumentBodyMetadata


T = TypeVar("T", bound="UploadDocumentBody")


@_attrs_define
class UploadDocumentBody:
    """
    Attributes:
        file (File): The document's content (the type is read from it).
        metadata (UploadDocumentBodyMetadata | Unset): A JSON object of strings; keys match `[A-Za-z0-9_.-]{1,64}`, up
            to 50 of them.
        tags (list[str] | Unset): Up to 50; repeat the part or comma-separate.
        title (str | Unset): Default: the file's name.
    """

    file: File
    metadata: UploadDocumentBodyMetadata | Unset = UNSET
    tags: list[str] | Unset = UNSET
    title: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        file = self.file.to_tuple()

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
        from ..models.upload_document_body_metadata import UploadDocumentBodyMetadata

        d = dict(src_dict)
        file = File(payload=BytesIO(d.pop("file")))

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
            metadata=metadata,
            tags=tags,
            title=title,
        )

        return upload_document_body

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DocumentVersion")


@_attrs_define
class DocumentVersion:
    """
    Attributes:
        content_type (str):
        created_at (datetime.datetime):
        created_by (None | str):
        document_id (str):
        filename (str):
        id (str):
        number (int):
        sha256 (str):
        size (int):
    """

    content_type: str
    created_at: datetime.datetime
    created_by: None | str
    document_id: str
    filename: str
    id: str
    number: int
    sha256: str
    size: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        content_type = self.content_type

        created_at = self.created_at.isoformat()

        created_by: None | str
        created_by = self.created_by

        document_id = self.document_id

        filename = self.filename

        id = self.id

        number = self.number

        sha256 = self.sha256

        size = self.size

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "contentType": content_type,
                "createdAt": created_at,
                "createdBy": created_by,
                "documentId": document_id,
                "filename": filename,
                "id": id,
                "number": number,
                "sha256": sha256,
                "size": size,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        content_type = d.pop("contentType")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_created_by(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        created_by = _parse_created_by(d.pop("createdBy"))

        document_id = d.pop("documentId")

        filename = d.pop("filename")

        id = d.pop("id")

        number = d.pop("number")

        sha256 = d.pop("sha256")

        size = d.pop("size")

        document_version = cls(
            content_type=content_type,
            created_at=created_at,
            created_by=created_by,
            document_id=document_id,
            filename=filename,
            id=id,
            number=number,
            sha256=sha256,
            size=size,
        )

        document_version.additional_properties = d
        return document_version

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

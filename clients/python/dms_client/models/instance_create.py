from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="InstanceCreate")


@_attrs_define
class InstanceCreate:
    """POST /workflows/instances: start a definition on a document.

    Attributes:
        definition_id (str):
        document_id (str):
    """

    definition_id: str
    document_id: str

    def to_dict(self) -> dict[str, Any]:
        definition_id = self.definition_id

        document_id = self.document_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "definitionId": definition_id,
                "documentId": document_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        definition_id = d.pop("definitionId")

        document_id = d.pop("documentId")

        instance_create = cls(
            definition_id=definition_id,
            document_id=document_id,
        )

        return instance_create

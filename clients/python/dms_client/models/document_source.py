from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.source_type import SourceType

T = TypeVar("T", bound="DocumentSource")


@_attrs_define
class DocumentSource:
    """Where the document came from. `type` says how; the rest depends on it: form adds
    `formId` and `submissionId`, mail `accountId`, `messageId`, `from` and `subject`, folder
    `path`; import keeps what the archive's document said.

        Attributes:
            type_ (SourceType): How a document came in (its `source.type`).
    """

    type_: SourceType
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = SourceType(d.pop("type"))

        document_source = cls(
            type_=type_,
        )

        document_source.additional_properties = d
        return document_source

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

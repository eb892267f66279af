from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ConversationSummary")


@_attrs_define
class ConversationSummary:
    """
    Attributes:
        created_at (datetime.datetime):
        document_ids (list[str]):
        id (str):
        message_count (int):
        title (str):
        updated_at (datetime.datetime):
    """

    created_at: datetime.datetime
    document_ids: list[str]
    id: str
    message_count: int
    title: str
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        document_ids = self.document_ids

        id = self.id

        message_count = self.message_count

        title = self.title

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "documentIds": document_ids,
                "id": id,
                "messageCount": message_count,
                "title": title,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        document_ids = cast(list[str], d.pop("documentIds"))

        id = d.pop("id")

        message_count = d.pop("messageCount")

        title = d.pop("title")

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        conversation_summary = cls(
            created_at=created_at,
            document_ids=document_ids,
            id=id,
            message_count=message_count,
            title=title,
            updated_at=updated_at,
        )

        conversation_summary.additional_properties = d
        return conversation_summary

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

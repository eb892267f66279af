from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.note_author import NoteAuthor


T = TypeVar("T", bound="Note")


@_attrs_define
class Note:
    """
    Attributes:
        author (NoteAuthor):
        body (str):
        created_at (datetime.datetime):
        document_id (str):
        id (str):
        mentions (list[str]): The ids (usr_…) of the people the body mentions.
    """

    author: NoteAuthor
    body: str
    created_at: datetime.datetime
    document_id: str
    id: str
    mentions: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        author = self.author.to_dict()

        body = self.body

        created_at = self.created_at.isoformat()

        document_id = self.document_id

        id = self.id

        mentions = self.mentions

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "author": author,
                "body": body,
                "createdAt": created_at,
                "documentId": document_id,
                "id": id,
                "mentions": mentions,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.note_author import NoteAuthor

        d = dict(src_dict)
        author = NoteAuthor.from_dict(d.pop("author"))

        body = d.pop("body")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        document_id = d.pop("documentId")

        id = d.pop("id")

        mentions = cast(list[str], d.pop("mentions"))

        note = cls(
            author=author,
            body=body,
            created_at=created_at,
            document_id=document_id,
            id=id,
            mentions=mentions,
        )

        note.additional_properties = d
        return note

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

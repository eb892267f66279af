from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="NoteCreate")


@_attrs_define
class NoteCreate:
    """POST /documents/{id}/notes.

    Attributes:
        body (str): Plain text, at most 10,000 characters. `@email` of a person of the tenant mentions them: they are
            notified (notification type note.mention).
    """

    body: str

    def to_dict(self) -> dict[str, Any]:
        body = self.body

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "body": body,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        body = d.pop("body")

        note_create = cls(
            body=body,
        )

        return note_create

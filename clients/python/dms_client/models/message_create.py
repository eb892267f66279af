from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="MessageCreate")


@_attrs_define
class MessageCreate:
    """POST /copilot/conversations and POST /copilot/conversations/{id}/messages.

    Attributes:
        message (str): The question (at most 2,000 characters).
        document_ids (list[str] | None | Unset): Answer only from these documents (at most 50; any not the tenant's and
            live is a 404). A follow-up without it keeps the conversation's.
    """

    message: str
    document_ids: list[str] | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        message = self.message

        document_ids: list[str] | None | Unset
        if isinstance(self.document_ids, Unset):
            document_ids = UNSET
        elif isinstance(self.document_ids, list):
            document_ids = self.document_ids

        else:
            document_ids = self.document_ids

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "message": message,
            }
        )
        if document_ids is not UNSET:
            field_dict["documentIds"] = document_ids

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        message = d.pop("message")

        def _parse_document_ids(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                document_ids_type_0 = cast(list[str], data)

                return document_ids_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        document_ids = _parse_document_ids(d.pop("documentIds", UNSET))

        message_create = cls(
            message=message,
            document_ids=document_ids,
        )

        return message_create

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Citation")


@_attrs_define
class Citation:
    """
    Attributes:
        document_id (str):
        end (int): Where it ends (code points, exclusive).
        passage_id (str): The passage cited (psg_…; docs/search.md).
        snippet (str): The quoted text of the passage (at most 300 characters).
        start (int): Where the passage starts in the document's text.
        title (str):
    """

    document_id: str
    end: int
    passage_id: str
    snippet: str
    start: int
    title: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        document_id = self.document_id

        end = self.end

        passage_id = self.passage_id

        snippet = self.snippet

        start = self.start

        title = self.title

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "documentId": document_id,
                "end": end,
                "passageId": passage_id,
                "snippet": snippet,
                "start": start,
                "title": title,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        document_id = d.pop("documentId")

        end = d.pop("end")

        passage_id = d.pop("passageId")

        snippet = d.pop("snippet")

        start = d.pop("start")

        title = d.pop("title")

        citation = cls(
            document_id=document_id,
            end=end,
            passage_id=passage_id,
            snippet=snippet,
            start=start,
            title=title,
        )

        citation.additional_properties = d
        return citation

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

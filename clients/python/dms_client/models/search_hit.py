from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.document import Document
    from ..models.highlight import Highlight
    from ..models.search_hit_signals import SearchHitSignals


T = TypeVar("T", bound="SearchHit")


@_attrs_define
class SearchHit:
    """
    Attributes:
        document (Document):
        highlights (list[Highlight]):
        score (float):
        signals (SearchHitSignals): Each ranking signal's value for this hit.
    """

    document: Document
    highlights: list[Highlight]
    score: float
    signals: SearchHitSignals
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        document = self.document.to_dict()

        highlights = []
        for highlights_item_data in self.highlights:
            highlights_item = highlights_item_data.to_dict()
            highlights.append(highlights_item)

        score = self.score

        signals = self.signals.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "document": document,
                "highlights": highlights,
                "score": score,
                "signals": signals,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.document import Document
        from ..models.highlight import Highlight
        from ..models.search_hit_signals import SearchHitSignals

        d = dict(src_dict)
        document = Document.from_dict(d.pop("document"))

        highlights = []
        _highlights = d.pop("highlights")
        for highlights_item_data in _highlights:
            highlights_item = Highlight.from_dict(highlights_item_data)

            highlights.append(highlights_item)

        score = d.pop("score")

        signals = SearchHitSignals.from_dict(d.pop("signals"))

        search_hit = cls(
            document=document,
            highlights=highlights,
            score=score,
            signals=signals,
        )

        search_hit.additional_properties = d
        return search_hit

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

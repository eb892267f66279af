from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.document_figures_bycontenttype import DocumentFiguresBycontenttype
    from ..models.document_figures_bystatus import DocumentFiguresBystatus


T = TypeVar("T", bound="DocumentFigures")


@_attrs_define
class DocumentFigures:
    """
    Attributes:
        by_content_type (DocumentFiguresBycontenttype): Stored documents by current type.
        by_status (DocumentFiguresBystatus): active, archived, deleted (in the trash).
        total (int): Documents stored: active, archived and in the trash.
    """

    by_content_type: DocumentFiguresBycontenttype
    by_status: DocumentFiguresBystatus
    total: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        by_content_type = self.by_content_type.to_dict()

        by_status = self.by_status.to_dict()

        total = self.total

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "byContentType": by_content_type,
                "byStatus": by_status,
                "total": total,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.document_figures_bycontenttype import DocumentFiguresBycontenttype
        from ..models.document_figures_bystatus import DocumentFiguresBystatus

        d = dict(src_dict)
        by_content_type = DocumentFiguresBycontenttype.from_dict(d.pop("byContentType"))

        by_status = DocumentFiguresBystatus.from_dict(d.pop("byStatus"))

        total = d.pop("total")

        document_figures = cls(
            by_content_type=by_content_type,
            by_status=by_status,
            total=total,
        )

        document_figures.additional_properties = d
        return document_figures

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

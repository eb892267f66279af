from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.document_selection import DocumentSelection


T = TypeVar("T", bound="MatchingRuleApply")


@_attrs_define
class MatchingRuleApply:
    """POST /matching-rules/{id}/apply: `documentIds` or `filter` (one of them).

    Attributes:
        document_ids (list[str] | None | Unset): The documents (doc_…); an id the tenant does not have is that
            document's NOT_FOUND in the job's errors.
        filter_ (DocumentSelection | None | Unset): The documents list's filters, resolved when the job starts.
    """

    document_ids: list[str] | None | Unset = UNSET
    filter_: DocumentSelection | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.document_selection import DocumentSelection

        document_ids: list[str] | None | Unset
        if isinstance(self.document_ids, Unset):
            document_ids = UNSET
        elif isinstance(self.document_ids, list):
            document_ids = self.document_ids

        else:
            document_ids = self.document_ids

        filter_: dict[str, Any] | None | Unset
        if isinstance(self.filter_, Unset):
            filter_ = UNSET
        elif isinstance(self.filter_, DocumentSelection):
            filter_ = self.filter_.to_dict()
        else:
            filter_ = self.filter_

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if document_ids is not UNSET:
            field_dict["documentIds"] = document_ids
        if filter_ is not UNSET:
            field_dict["filter"] = filter_

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.document_selection import DocumentSelection

        d = dict(src_dict)

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

        def _parse_filter_(data: object) -> DocumentSelection | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                filter_type_0 = DocumentSelection.from_dict(data)

                return filter_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DocumentSelection | None | Unset, data)

        filter_ = _parse_filter_(d.pop("filter", UNSET))

        matching_rule_apply = cls(
            document_ids=document_ids,
            filter_=filter_,
        )

        return matching_rule_apply

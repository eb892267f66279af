from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.document_selection_sort import DocumentSelectionSort
from ..models.document_status import DocumentStatus
from ..models.source_type import SourceType
from ..types import UNSET, Unset

T = TypeVar("T", bound="DocumentSelection")


@_attrs_define
class DocumentSelection:
    """The documents list's filters (`GET /documents`' parameters but its page: no `limit`,
    no `cursor`; `sort` is accepted and does not matter), as JSON: `status` and `tag` a
    string or a list of strings, `metadata` an object of exact values. A saved view is
    refused rather than applied: a filter it left out would select every document.

        Attributes:
            content_type (None | str | Unset): Exact type (application/pdf) or family (image/*).
            created_after (datetime.datetime | None | Unset): createdAt >= this instant.
            created_before (datetime.datetime | None | Unset): createdAt < this instant.
            custom_field_query (None | str | Unset): A JSON filter on custom field values in paperless-ngx's shape: [field,
                op, value], ["AND"|"OR", [query, …]] or ["NOT", query]; ops exact, in, isnull, exists, icontains, gt, gte, lt,
                lte, range; depth ≤ 10, ≤ 20 conditions (docs/customfields.md).
            metadata (list[str] | Unset): Exact metadata values, as `<key>:<value>` (`dept:sales`); repeat the parameter for
                several pairs, all of which must match (up to 10). The value is everything after the first colon, commas
                included. `metadata.<key>=<value>` is accepted too.
            sort (DocumentSelectionSort | Unset): Order; '-' means descending. Default: DocumentSelectionSort.VALUE_1.
            source (list[SourceType] | Unset): Where documents came from (api, portal, mail, folder, form, import); repeat
                or comma-separate: any of them.
            status (list[DocumentStatus] | Unset): active, archived or deleted (the trash); repeat or comma-separate.
                Default: active and archived.
            tag (list[str] | Unset): Documents carrying every tag given (repeatable).
            title (None | str | Unset): Case-insensitive substring of the title.
            updated_after (datetime.datetime | None | Unset): updatedAt >= this instant.
            updated_before (datetime.datetime | None | Unset): updatedAt < this instant.
    """

    content_type: None | str | Unset = UNSET
    created_after: datetime.datetime | None | Unset = UNSET
    created_before: datetime.datetime | None | Unset = UNSET
    custom_field_query: None | str | Unset = UNSET
    metadata: list[str] | Unset = UNSET
    sort: DocumentSelectionSort | Unset = DocumentSelectionSort.VALUE_1
    source: list[SourceType] | Unset = UNSET
    status: list[DocumentStatus] | Unset = UNSET
    tag: list[str] | Unset = UNSET
    title: None | str | Unset = UNSET
    updated_after: datetime.datetime | None | Unset = UNSET
    updated_before: datetime.datetime | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        content_type: None | str | Unset
        if isinstance(self.content_type, Unset):
            content_type = UNSET
        else:
            content_type = self.content_type

        created_after: None | str | Unset
        if isinstance(self.created_after, Unset):
            created_after = UNSET
        elif isinstance(self.created_after, datetime.datetime):
            created_after = self.created_after.isoformat()
        else:
            created_after = self.created_after

        created_before: None | str | Unset
        if isinstance(self.created_before, Unset):
            created_before = UNSET
        elif isinstance(self.created_before, datetime.datetime):
            created_before = self.created_before.isoformat()
        else:
            created_before = self.created_before

        custom_field_query: None | str | Unset
        if isinstance(self.custom_field_query, Unset):
            custom_field_query = UNSET
        else:
            custom_field_query = self.custom_field_query

        metadata: list[str] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata

        sort: str | Unset = UNSET
        if not isinstance(self.sort, Unset):
            sort = self.sort.value

        source: list[str] | Unset = UNSET
        if not isinstance(self.source, Unset):
            source = []
            for source_item_data in self.source:
                source_item = source_item_data.value
                source.append(source_item)

        status: list[str] | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = []
            for status_item_data in self.status:
                status_item = status_item_data.value
                status.append(status_item)

        tag: list[str] | Unset = UNSET
        if not isinstance(self.tag, Unset):
            tag = self.tag

        title: None | str | Unset
        if isinstance(self.title, Unset):
            title = UNSET
        else:
            title = self.title

        updated_after: None | str | Unset
        if isinstance(self.updated_after, Unset):
            updated_after = UNSET
        elif isinstance(self.updated_after, datetime.datetime):
            updated_after = self.updated_after.isoformat()
        else:
            updated_after = self.updated_after

        updated_before: None | str | Unset
        if isinstance(self.updated_before, Unset):
            updated_before = UNSET
        elif isinstance(self.updated_before, datetime.datetime):
            updated_before = self.updated_before.isoformat()
        else:
            updated_before = self.updated_before

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if content_type is not UNSET:
            field_dict["contentType"] = content_type
        if created_after is not UNSET:
            field_dict["createdAfter"] = created_after
        if created_before is not UNSET:
            field_dict["createdBefore"] = created_before
        if custom_field_query is not UNSET:
            field_dict["customFieldQuery"] = custom_field_query
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if sort is not UNSET:
            field_dict["sort"] = sort
        if source is not UNSET:
            field_dict["source"] = source
        if status is not UNSET:
            field_dict["status"] = status
        if tag is not UNSET:
            field_dict["tag"] = tag
        if title is not UNSET:
            field_dict["title"] = title
        if updated_after is not UNSET:
            field_dict["updatedAfter"] = updated_after
        if updated_before is not UNSET:
            field_dict["updatedBefore"] = updated_before

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_content_type(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        content_type = _parse_content_type(d.pop("contentType", UNSET))

        def _parse_created_after(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                created_after_type_0 = datetime.datetime.fromisoformat(data)

                return created_after_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        created_after = _parse_created_after(d.pop("createdAfter", UNSET))

        def _parse_created_before(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                created_before_type_0 = datetime.datetime.fromisoformat(data)

                return created_before_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        created_before = _parse_created_before(d.pop("createdBefore", UNSET))

        def _parse_custom_field_query(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        custom_field_query = _parse_custom_field_query(d.pop("customFieldQuery", UNSET))

        metadata = cast(list[str], d.pop("metadata", UNSET))

        _sort = d.pop("sort", UNSET)
        sort: DocumentSelectionSort | Unset
        if isinstance(_sort, Unset):
            sort = UNSET
        else:
            sort = DocumentSelectionSort(_sort)

        _source = d.pop("source", UNSET)
        source: list[SourceType] | Unset = UNSET
        if _source is not UNSET:
            source = []
            for source_item_data in _source:
                source_item = SourceType(source_item_data)

                source.append(source_item)

        _status = d.pop("status", UNSET)
        status: list[DocumentStatus] | Unset = UNSET
        if _status is not UNSET:
            status = []
            for status_item_data in _status:
                status_item = DocumentStatus(status_item_data)

                status.append(status_item)

        tag = cast(list[str], d.pop("tag", UNSET))

        def _parse_title(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        title = _parse_title(d.pop("title", UNSET))

        def _parse_updated_after(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                updated_after_type_0 = datetime.datetime.fromisoformat(data)

                return updated_after_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        updated_after = _parse_updated_after(d.pop("updatedAfter", UNSET))

        def _parse_updated_before(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                updated_before_type_0 = datetime.datetime.fromisoformat(data)

                return updated_before_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        updated_before = _parse_updated_before(d.pop("updatedBefore", UNSET))

        document_selection = cls(
            content_type=content_type,
            created_after=created_after,
            created_before=created_before,
            custom_field_query=custom_field_query,
            metadata=metadata,
            sort=sort,
            source=source,
            status=status,
            tag=tag,
            title=title,
            updated_after=updated_after,
            updated_before=updated_before,
        )

        return document_selection

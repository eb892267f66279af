from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.custom_fields_operation import CustomFieldsOperation
    from ..models.document_selection import DocumentSelection
    from ..models.metadata_operation import MetadataOperation
    from ..models.restore_operation import RestoreOperation
    from ..models.start_workflow_operation import StartWorkflowOperation
    from ..models.tags_operation import TagsOperation
    from ..models.trash_operation import TrashOperation


T = TypeVar("T", bound="BulkEdit")


@_attrs_define
class BulkEdit:
    """POST /documents/bulk: `documentIds` or `filter` (one of them), and `operations`,
    applied in order to each document.

        Attributes:
            operations (list[CustomFieldsOperation | MetadataOperation | RestoreOperation | StartWorkflowOperation |
                TagsOperation | TrashOperation]):
            document_ids (list[str] | None | Unset): The documents (doc_…); an id the tenant does not have is that
                document's NOT_FOUND in the job's errors.
            filter_ (DocumentSelection | None | Unset): The documents list's filters (its query parameters as a JSON
                object): the documents matching them when the job starts, at most 100,000.
    """

    operations: list[
        CustomFieldsOperation
        | MetadataOperation
        | RestoreOperation
        | StartWorkflowOperation
        | TagsOperation
        | TrashOperation
    ]
    document_ids: list[str] | None | Unset = UNSET
    filter_: DocumentSelection | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.custom_fields_operation import CustomFieldsOperation
        from ..models.document_selection import DocumentSelection
        from ..models.metadata_operation import MetadataOperation
        from ..models.restore_operation import RestoreOperation
        from ..models.tags_operation import TagsOperation
        from ..models.trash_operation import TrashOperation

        operations = []
        for operations_item_data in self.operations:
            operations_item: dict[str, Any]
            if (
                isinstance(operations_item_data, TagsOperation)
                or isinstance(operations_item_data, MetadataOperation)
                or isinstance(operations_item_data, CustomFieldsOperation)
                or isinstance(operations_item_data, TrashOperation)
                or isinstance(operations_item_data, RestoreOperation)
            ):
                operations_item = operations_item_data.to_dict()
            else:
                operations_item = operations_item_data.to_dict()

            operations.append(operations_item)

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

        field_dict.update(
            {
                "operations": operations,
            }
        )
        if document_ids is not UNSET:
            field_dict["documentIds"] = document_ids
        if filter_ is not UNSET:
            field_dict["filter"] = filter_

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.custom_fields_operation import CustomFieldsOperation
        from ..models.document_selection import DocumentSelection
        from ..models.metadata_operation import MetadataOperation
        from ..models.restore_operation import RestoreOperation
        from ..models.start_workflow_operation import StartWorkflowOperation
        from ..models.tags_operation import TagsOperation
        from ..models.trash_operation import TrashOperation

        d = dict(src_dict)
        operations = []
        _operations = d.pop("operations")
        for operations_item_data in _operations:

            def _parse_operations_item(
                data: object,
            ) -> (
                CustomFieldsOperation
                | MetadataOperation
                | RestoreOperation
                | StartWorkflowOperation
                | TagsOperation
                | TrashOperation
            ):
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    operations_item_type_0 = TagsOperation.from_dict(data)

                    return operations_item_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    operations_item_type_1 = MetadataOperation.from_dict(data)

                    return operations_item_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    operations_item_type_2 = CustomFieldsOperation.from_dict(data)

                    return operations_item_type_2
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    operations_item_type_3 = TrashOperation.from_dict(data)

                    return operations_item_type_3
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    operations_item_type_4 = RestoreOperation.from_dict(data)

                    return operations_item_type_4
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                operations_item_type_5 = StartWorkflowOperation.from_dict(data)

                return operations_item_type_5

            operations_item = _parse_operations_item(operations_item_data)

            operations.append(operations_item)

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

        bulk_edit = cls(
            operations=operations,
            document_ids=document_ids,
            filter_=filter_,
        )

        return bulk_edit

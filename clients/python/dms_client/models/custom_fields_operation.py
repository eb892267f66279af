from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.custom_fields_operation_custom_fields import (
        CustomFieldsOperationCustomFields,
    )


T = TypeVar("T", bound="CustomFieldsOperation")


@_attrs_define
class CustomFieldsOperation:
    """
    Attributes:
        custom_fields (CustomFieldsOperationCustomFields): Custom field values by field id (cfd_…): the value in the
            field's data type, or null to remove it (docs/customfields.md).
        op (Literal['setCustomFields']):
    """

    custom_fields: CustomFieldsOperationCustomFields
    op: Literal["setCustomFields"]

    def to_dict(self) -> dict[str, Any]:
        custom_fields = self.custom_fields.to_dict()

        op = self.op

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "customFields": custom_fields,
                "op": op,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.custom_fields_operation_custom_fields import (
            CustomFieldsOperationCustomFields,
        )

        d = dict(src_dict)
        custom_fields = CustomFieldsOperationCustomFields.from_dict(
            d.pop("customFields")
        )

        op = cast(Literal["setCustomFields"], d.pop("op"))
        if op != "setCustomFields":
            raise ValueError(f"op must match const 'setCustomFields', got '{op}'")

        custom_fields_operation = cls(
            custom_fields=custom_fields,
            op=op,
        )

        return custom_fields_operation

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
    from ..models.metadata_operation_metadata import MetadataOperationMetadata


T = TypeVar("T", bound="MetadataOperation")


@_attrs_define
class MetadataOperation:
    """Merged into each document's metadata as PATCH merges it: null removes a key.

    Attributes:
        metadata (MetadataOperationMetadata):
        op (Literal['setMetadata']):
    """

    metadata: MetadataOperationMetadata
    op: Literal["setMetadata"]

    def to_dict(self) -> dict[str, Any]:
        metadata = self.metadata.to_dict()

        op = self.op

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "metadata": metadata,
                "op": op,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.metadata_operation_metadata import MetadataOperationMetadata

        d = dict(src_dict)
        metadata = MetadataOperationMetadata.from_dict(d.pop("metadata"))

        op = cast(Literal["setMetadata"], d.pop("op"))
        if op != "setMetadata":
            raise ValueError(f"op must match const 'setMetadata', got '{op}'")

        metadata_operation = cls(
            metadata=metadata,
            op=op,
        )

        return metadata_operation

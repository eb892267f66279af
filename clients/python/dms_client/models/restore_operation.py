from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

T = TypeVar("T", bound="RestoreOperation")


@_attrs_define
class RestoreOperation:
    """
    Attributes:
        op (Literal['restore']):
    """

    op: Literal["restore"]

    def to_dict(self) -> dict[str, Any]:
        op = self.op

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "op": op,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        op = cast(Literal["restore"], d.pop("op"))
        if op != "restore":
            raise ValueError(f"op must match const 'restore', got '{op}'")

        restore_operation = cls(
            op=op,
        )

        return restore_operation

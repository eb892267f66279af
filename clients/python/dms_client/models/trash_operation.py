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

T = TypeVar("T", bound="TrashOperation")


@_attrs_define
class TrashOperation:
    """
    Attributes:
        op (Literal['trash']):
    """

    op: Literal["trash"]

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
        op = cast(Literal["trash"], d.pop("op"))
        if op != "trash":
            raise ValueError(f"op must match const 'trash', got '{op}'")

        trash_operation = cls(
            op=op,
        )

        return trash_operation

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.tags_operation_op import TagsOperationOp

T = TypeVar("T", bound="TagsOperation")


@_attrs_define
class TagsOperation:
    """
    Attributes:
        op (TagsOperationOp):
        tags (list[str]):
    """

    op: TagsOperationOp
    tags: list[str]

    def to_dict(self) -> dict[str, Any]:
        op = self.op.value

        tags = self.tags

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "op": op,
                "tags": tags,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        op = TagsOperationOp(d.pop("op"))

        tags = cast(list[str], d.pop("tags"))

        tags_operation = cls(
            op=op,
            tags=tags,
        )

        return tags_operation

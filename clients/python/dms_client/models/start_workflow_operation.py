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

T = TypeVar("T", bound="StartWorkflowOperation")


@_attrs_define
class StartWorkflowOperation:
    """Starts the definition on each document that has no pending instance of it.

    Attributes:
        definition_id (str): wfd_….
        op (Literal['startWorkflow']):
    """

    definition_id: str
    op: Literal["startWorkflow"]

    def to_dict(self) -> dict[str, Any]:
        definition_id = self.definition_id

        op = self.op

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "definitionId": definition_id,
                "op": op,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        definition_id = d.pop("definitionId")

        op = cast(Literal["startWorkflow"], d.pop("op"))
        if op != "startWorkflow":
            raise ValueError(f"op must match const 'startWorkflow', got '{op}'")

        start_workflow_operation = cls(
            definition_id=definition_id,
            op=op,
        )

        return start_workflow_operation

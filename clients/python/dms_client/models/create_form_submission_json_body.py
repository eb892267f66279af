from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.create_form_submission_json_body_data import (
        CreateFormSubmissionJsonBodyData,
    )


T = TypeVar("T", bound="CreateFormSubmissionJsonBody")


@_attrs_define
class CreateFormSubmissionJsonBody:
    """
    Attributes:
        data (CreateFormSubmissionJsonBodyData): The answers.
    """

    data: CreateFormSubmissionJsonBodyData

    def to_dict(self) -> dict[str, Any]:
        data = self.data.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.create_form_submission_json_body_data import (
            CreateFormSubmissionJsonBodyData,
        )

        d = dict(src_dict)
        data = CreateFormSubmissionJsonBodyData.from_dict(d.pop("data"))

        create_form_submission_json_body = cls(
            data=data,
        )

        return create_form_submission_json_body

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.submission_data import SubmissionData


T = TypeVar("T", bound="Submission")


@_attrs_define
class Submission:
    """
    Attributes:
        created_at (datetime.datetime):
        data (SubmissionData):
        document_ids (list[str]): Documents made of the submission's files.
        form_id (str):
        form_version (int): The version of the form this submission answered.
        id (str):
        submitted_by (str): The key or user id, or "public".
        workflow_instance_id (None | str):
    """

    created_at: datetime.datetime
    data: SubmissionData
    document_ids: list[str]
    form_id: str
    form_version: int
    id: str
    submitted_by: str
    workflow_instance_id: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        data = self.data.to_dict()

        document_ids = self.document_ids

        form_id = self.form_id

        form_version = self.form_version

        id = self.id

        submitted_by = self.submitted_by

        workflow_instance_id: None | str
        workflow_instance_id = self.workflow_instance_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "data": data,
                "documentIds": document_ids,
                "formId": form_id,
                "formVersion": form_version,
                "id": id,
                "submittedBy": submitted_by,
                "workflowInstanceId": workflow_instance_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.submission_data import SubmissionData

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        data = SubmissionData.from_dict(d.pop("data"))

        document_ids = cast(list[str], d.pop("documentIds"))

        form_id = d.pop("formId")

        form_version = d.pop("formVersion")

        id = d.pop("id")

        submitted_by = d.pop("submittedBy")

        def _parse_workflow_instance_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        workflow_instance_id = _parse_workflow_instance_id(d.pop("workflowInstanceId"))

        submission = cls(
            created_at=created_at,
            data=data,
            document_ids=document_ids,
            form_id=form_id,
            form_version=form_version,
            id=id,
            submitted_by=submitted_by,
            workflow_instance_id=workflow_instance_id,
        )

        submission.additional_properties = d
        return submission

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties

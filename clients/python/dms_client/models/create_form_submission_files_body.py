from __future__ import annotations

import json
from collections.abc import Mapping
from io import BytesIO
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..types import UNSET, File, Unset

if TYPE_CHECKING:
    from ..models.create_form_submission_files_body_data import (
        CreateFormSubmissionFilesBodyData,
    )


T = TypeVar("T", bound="CreateFormSubmissionFilesBody")


@_attrs_define
class CreateFormSubmissionFilesBody:
    """
    Attributes:
        data (CreateFormSubmissionFilesBodyData | Unset): The answers but the files.
    """

    data: CreateFormSubmissionFilesBodyData | Unset = UNSET
    additional_properties: dict[str, File] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] | Unset = UNSET
        if not isinstance(self.data, Unset):
            data = self.data.to_dict()

        field_dict: dict[str, Any] = {}
        for prop_name, prop in self.additional_properties.items():
            field_dict[prop_name] = prop.to_tuple()

        field_dict.update({})
        if data is not UNSET:
            field_dict["data"] = data

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        if not isinstance(self.data, Unset):
            files.append(
                (
                    "data",
                    (
                        None,
                        json.dumps(self.data.to_dict()).encode(),
                        "application/json",
                    ),
                )
            )

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, prop.to_tuple()))

        return files

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.create_form_submission_files_body_data import (
            CreateFormSubmissionFilesBodyData,
        )

        d = dict(src_dict)
        _data = d.pop("data", UNSET)
        data: CreateFormSubmissionFilesBodyData | Unset
        if isinstance(_data, Unset):
            data = UNSET
        else:
            data = CreateFormSubmissionFilesBodyData.from_dict(_data)

        create_form_submission_files_body = cls(
            data=data,
        )

        additional_properties = {}
        for prop_name, prop_dict in d.items():
            additional_property = File(payload=BytesIO(prop_dict))

            additional_properties[prop_name] = additional_property

        create_form_submission_files_body.additional_properties = additional_properties
        return create_form_submission_files_body

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> File:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: File) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties

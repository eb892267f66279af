from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.form_create_status import FormCreateStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.form_create_schema import FormCreateSchema


T = TypeVar("T", bound="FormCreate")


@_attrs_define
class FormCreate:
    """POST /forms.

    Attributes:
        name (str):
        schema (FormCreateSchema): JSON Schema 2020-12 with "type": "object" (docs/forms.md has the rules).
        description (None | str | Unset):
        public (bool | Unset): Give the published form a public page. Default: False.
        status (FormCreateStatus | Unset): draft or published. Default: FormCreateStatus.DRAFT.
        workflow_definition_id (None | str | Unset): A workflow definition (wfd_…) started on every submission.
    """

    name: str
    schema: FormCreateSchema
    description: None | str | Unset = UNSET
    public: bool | Unset = False
    status: FormCreateStatus | Unset = FormCreateStatus.DRAFT
    workflow_definition_id: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        schema = self.schema.to_dict()

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        public = self.public

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        workflow_definition_id: None | str | Unset
        if isinstance(self.workflow_definition_id, Unset):
            workflow_definition_id = UNSET
        else:
            workflow_definition_id = self.workflow_definition_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "schema": schema,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description
        if public is not UNSET:
            field_dict["public"] = public
        if status is not UNSET:
            field_dict["status"] = status
        if workflow_definition_id is not UNSET:
            field_dict["workflowDefinitionId"] = workflow_definition_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.form_create_schema import FormCreateSchema

        d = dict(src_dict)
        name = d.pop("name")

        schema = FormCreateSchema.from_dict(d.pop("schema"))

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        public = d.pop("public", UNSET)

        _status = d.pop("status", UNSET)
        status: FormCreateStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = FormCreateStatus(_status)

        def _parse_workflow_definition_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        workflow_definition_id = _parse_workflow_definition_id(
            d.pop("workflowDefinitionId", UNSET)
        )

        form_create = cls(
            name=name,
            schema=schema,
            description=description,
            public=public,
            status=status,
            workflow_definition_id=workflow_definition_id,
        )

        return form_create

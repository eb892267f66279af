from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.form_patch_status import FormPatchStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.form_patch_schema import FormPatchSchema


T = TypeVar("T", bound="FormPatch")


@_attrs_define
class FormPatch:
    """PATCH /forms/{id}: only the fields sent change; a null workflowDefinitionId or
    description clears it. A new schema for a version that went live makes a new version.

        Attributes:
            description (None | str | Unset):
            name (str | Unset):
            public (bool | Unset):
            schema (FormPatchSchema | Unset):
            status (FormPatchStatus | Unset):
            workflow_definition_id (None | str | Unset):
    """

    description: None | str | Unset = UNSET
    name: str | Unset = UNSET
    public: bool | Unset = UNSET
    schema: FormPatchSchema | Unset = UNSET
    status: FormPatchStatus | Unset = UNSET
    workflow_definition_id: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        name = self.name

        public = self.public

        schema: dict[str, Any] | Unset = UNSET
        if not isinstance(self.schema, Unset):
            schema = self.schema.to_dict()

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        workflow_definition_id: None | str | Unset
        if isinstance(self.workflow_definition_id, Unset):
            workflow_definition_id = UNSET
        else:
            workflow_definition_id = self.workflow_definition_id

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if description is not UNSET:
            field_dict["description"] = description
        if name is not UNSET:
            field_dict["name"] = name
        if public is not UNSET:
            field_dict["public"] = public
        if schema is not UNSET:
            field_dict["schema"] = schema
        if status is not UNSET:
            field_dict["status"] = status
        if workflow_definition_id is not UNSET:
            field_dict["workflowDefinitionId"] = workflow_definition_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.form_patch_schema import FormPatchSchema

        d = dict(src_dict)

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        name = d.pop("name", UNSET)

        public = d.pop("public", UNSET)

        _schema = d.pop("schema", UNSET)
        schema: FormPatchSchema | Unset
        if isinstance(_schema, Unset):
            schema = UNSET
        else:
            schema = FormPatchSchema.from_dict(_schema)

        _status = d.pop("status", UNSET)
        status: FormPatchStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = FormPatchStatus(_status)

        def _parse_workflow_definition_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        workflow_definition_id = _parse_workflow_definition_id(
            d.pop("workflowDefinitionId", UNSET)
        )

        form_patch = cls(
            description=description,
            name=name,
            public=public,
            schema=schema,
            status=status,
            workflow_definition_id=workflow_definition_id,
        )

        return form_patch

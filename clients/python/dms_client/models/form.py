from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.form_schema import FormSchema


T = TypeVar("T", bound="Form")


@_attrs_define
class Form:
    """
    Attributes:
        created_at (datetime.datetime):
        description (None | str):
        id (str):
        name (str):
        public (bool): Published public forms have a page at publicUrl.
        public_url (None | str): Path of the public page (when public).
        schema (FormSchema): JSON Schema 2020-12 of the fields (type object).
        status (str): draft, published or archived.
        updated_at (datetime.datetime):
        version (int): Increments when the schema of a version that went live changes.
        workflow_definition_id (None | str): Started on every submission.
    """

    created_at: datetime.datetime
    description: None | str
    id: str
    name: str
    public: bool
    public_url: None | str
    schema: FormSchema
    status: str
    updated_at: datetime.datetime
    version: int
    workflow_definition_id: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        description: None | str
        description = self.description

        id = self.id

        name = self.name

        public = self.public

        public_url: None | str
        public_url = self.public_url

        schema = self.schema.to_dict()

        status = self.status

        updated_at = self.updated_at.isoformat()

        version = self.version

        workflow_definition_id: None | str
        workflow_definition_id = self.workflow_definition_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "description": description,
                "id": id,
                "name": name,
                "public": public,
                "publicUrl": public_url,
                "schema": schema,
                "status": status,
                "updatedAt": updated_at,
                "version": version,
                "workflowDefinitionId": workflow_definition_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.form_schema import FormSchema

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))

        id = d.pop("id")

        name = d.pop("name")

        public = d.pop("public")

        def _parse_public_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        public_url = _parse_public_url(d.pop("publicUrl"))

        schema = FormSchema.from_dict(d.pop("schema"))

        status = d.pop("status")

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        version = d.pop("version")

        def _parse_workflow_definition_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        workflow_definition_id = _parse_workflow_definition_id(
            d.pop("workflowDefinitionId")
        )

        form = cls(
            created_at=created_at,
            description=description,
            id=id,
            name=name,
            public=public,
            public_url=public_url,
            schema=schema,
            status=status,
            updated_at=updated_at,
            version=version,
            workflow_definition_id=workflow_definition_id,
        )

        form.additional_properties = d
        return form

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

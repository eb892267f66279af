from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.caller_type import CallerType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.tenant import Tenant


T = TypeVar("T", bound="Caller")


@_attrs_define
class Caller:
    """Who is calling: a user (access token) or an API key.

    Attributes:
        id (str):
        scopes (list[str]): What this credential may do now.
        tenant (Tenant):
        type_ (CallerType):
        email (None | str | Unset): Users only.
        name (None | str | Unset):
        role (None | str | Unset): Users only.
    """

    id: str
    scopes: list[str]
    tenant: Tenant
    type_: CallerType
    email: None | str | Unset = UNSET
    name: None | str | Unset = UNSET
    role: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        scopes = self.scopes

        tenant = self.tenant.to_dict()

        type_ = self.type_.value

        email: None | str | Unset
        if isinstance(self.email, Unset):
            email = UNSET
        else:
            email = self.email

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        role: None | str | Unset
        if isinstance(self.role, Unset):
            role = UNSET
        else:
            role = self.role

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "scopes": scopes,
                "tenant": tenant,
                "type": type_,
            }
        )
        if email is not UNSET:
            field_dict["email"] = email
        if name is not UNSET:
            field_dict["name"] = name
        if role is not UNSET:
            field_dict["role"] = role

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.tenant import Tenant

        d = dict(src_dict)
        id = d.pop("id")

        scopes = cast(list[str], d.pop("scopes"))

        tenant = Tenant.from_dict(d.pop("tenant"))

        type_ = CallerType(d.pop("type"))

        def _parse_email(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        email = _parse_email(d.pop("email", UNSET))

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        def _parse_role(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        role = _parse_role(d.pop("role", UNSET))

        caller = cls(
            id=id,
            scopes=scopes,
            tenant=tenant,
            type_=type_,
            email=email,
            name=name,
            role=role,
        )

        caller.additional_properties = d
        return caller

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

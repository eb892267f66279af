from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.invitation_create_role import InvitationCreateRole
from ..types import UNSET, Unset

T = TypeVar("T", bound="InvitationCreate")


@_attrs_define
class InvitationCreate:
    """POST /users/invitations.

    Attributes:
        email (str):
        role (InvitationCreateRole | Unset):  Default: InvitationCreateRole.MEMBER.
    """

    email: str
    role: InvitationCreateRole | Unset = InvitationCreateRole.MEMBER

    def to_dict(self) -> dict[str, Any]:
        email = self.email

        role: str | Unset = UNSET
        if not isinstance(self.role, Unset):
            role = self.role.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "email": email,
            }
        )
        if role is not UNSET:
            field_dict["role"] = role

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        email = d.pop("email")

        _role = d.pop("role", UNSET)
        role: InvitationCreateRole | Unset
        if isinstance(_role, Unset):
            role = UNSET
        else:
            role = InvitationCreateRole(_role)

        invitation_create = cls(
            email=email,
            role=role,
        )

        return invitation_create

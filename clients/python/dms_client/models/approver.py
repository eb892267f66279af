from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.approver_role import ApproverRole
from ..types import UNSET, Unset

T = TypeVar("T", bound="Approver")


@_attrs_define
class Approver:
    """Exactly one of: a user id, a user's e-mail, or a role (every active user having it).

    Attributes:
        email (str | Unset):
        role (ApproverRole | Unset):
        user (str | Unset):
    """

    email: str | Unset = UNSET
    role: ApproverRole | Unset = UNSET
    user: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        email = self.email

        role: str | Unset = UNSET
        if not isinstance(self.role, Unset):
            role = self.role.value

        user = self.user

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if email is not UNSET:
            field_dict["email"] = email
        if role is not UNSET:
            field_dict["role"] = role
        if user is not UNSET:
            field_dict["user"] = user

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        email = d.pop("email", UNSET)

        _role = d.pop("role", UNSET)
        role: ApproverRole | Unset
        if isinstance(_role, Unset):
            role = UNSET
        else:
            role = ApproverRole(_role)

        user = d.pop("user", UNSET)

        approver = cls(
            email=email,
            role=role,
            user=user,
        )

        return approver

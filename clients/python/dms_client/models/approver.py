from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.approver_role_type_0 import ApproverRoleType0
from ..types import UNSET, Unset

T = TypeVar("T", bound="Approver")


@_attrs_define
class Approver:
    """Exactly one of: a user id, a user's e-mail, or a role (every active user having it).

    Attributes:
        email (None | str | Unset):
        role (ApproverRoleType0 | None | Unset):
        user (None | str | Unset):
    """

    email: None | str | Unset = UNSET
    role: ApproverRoleType0 | None | Unset = UNSET
    user: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        email: None | str | Unset
        if isinstance(self.email, Unset):
            email = UNSET
        else:
            email = self.email

        role: None | str | Unset
        if isinstance(self.role, Unset):
            role = UNSET
        elif isinstance(self.role, ApproverRoleType0):
            role = self.role.value
        else:
            role = self.role

        user: None | str | Unset
        if isinstance(self.user, Unset):
            user = UNSET
        else:
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

        def _parse_email(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        email = _parse_email(d.pop("email", UNSET))

        def _parse_role(data: object) -> ApproverRoleType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                role_type_0 = ApproverRoleType0(data)

                return role_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ApproverRoleType0 | None | Unset, data)

        role = _parse_role(d.pop("role", UNSET))

        def _parse_user(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        user = _parse_user(d.pop("user", UNSET))

        approver = cls(
            email=email,
            role=role,
            user=user,
        )

        return approver

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="MailAccountTest")


@_attrs_define
class MailAccountTest:
    """
    Attributes:
        folder (str):
        messages (int): Messages in the folder.
        ok (bool):
        security (str): How the connection was protected.
    """

    folder: str
    messages: int
    ok: bool
    security: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        folder = self.folder

        messages = self.messages

        ok = self.ok

        security = self.security

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "folder": folder,
                "messages": messages,
                "ok": ok,
                "security": security,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        folder = d.pop("folder")

        messages = d.pop("messages")

        ok = d.pop("ok")

        security = d.pop("security")

        mail_account_test = cls(
            folder=folder,
            messages=messages,
            ok=ok,
            security=security,
        )

        mail_account_test.additional_properties = d
        return mail_account_test

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

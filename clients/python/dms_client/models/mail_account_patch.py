from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.mail_account_patch_security import MailAccountPatchSecurity
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.mail_rule import MailRule


T = TypeVar("T", bound="MailAccountPatch")


@_attrs_define
class MailAccountPatch:
    """PATCH /mail-accounts/{id}: only the fields sent change.

    Attributes:
        enabled (bool | Unset):
        folder (str | Unset):
        imap_host (str | Unset):
        imap_port (int | Unset):
        name (str | Unset):
        password (str | Unset):
        poll_minutes (int | Unset):
        rules (list[MailRule] | Unset):
        security (MailAccountPatchSecurity | Unset):
        username (str | Unset):
    """

    enabled: bool | Unset = UNSET
    folder: str | Unset = UNSET
    imap_host: str | Unset = UNSET
    imap_port: int | Unset = UNSET
    name: str | Unset = UNSET
    password: str | Unset = UNSET
    poll_minutes: int | Unset = UNSET
    rules: list[MailRule] | Unset = UNSET
    security: MailAccountPatchSecurity | Unset = UNSET
    username: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        enabled = self.enabled

        folder = self.folder

        imap_host = self.imap_host

        imap_port = self.imap_port

        name = self.name

        password = self.password

        poll_minutes = self.poll_minutes

        rules: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.rules, Unset):
            rules = []
            for rules_item_data in self.rules:
                rules_item = rules_item_data.to_dict()
                rules.append(rules_item)

        security: str | Unset = UNSET
        if not isinstance(self.security, Unset):
            security = self.security.value

        username = self.username

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if enabled is not UNSET:
            field_dict["enabled"] = enabled
        if folder is not UNSET:
            field_dict["folder"] = folder
        if imap_host is not UNSET:
            field_dict["imapHost"] = imap_host
        if imap_port is not UNSET:
            field_dict["imapPort"] = imap_port
        if name is not UNSET:
            field_dict["name"] = name
        if password is not UNSET:
            field_dict["password"] = password
        if poll_minutes is not UNSET:
            field_dict["pollMinutes"] = poll_minutes
        if rules is not UNSET:
            field_dict["rules"] = rules
        if security is not UNSET:
            field_dict["security"] = security
        if username is not UNSET:
            field_dict["username"] = username

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.mail_rule import MailRule

        d = dict(src_dict)
        enabled = d.pop("enabled", UNSET)

        folder = d.pop("folder", UNSET)

        imap_host = d.pop("imapHost", UNSET)

        imap_port = d.pop("imapPort", UNSET)

        name = d.pop("name", UNSET)

        password = d.pop("password", UNSET)

        poll_minutes = d.pop("pollMinutes", UNSET)

        _rules = d.pop("rules", UNSET)
        rules: list[MailRule] | Unset = UNSET
        if _rules is not UNSET:
            rules = []
            for rules_item_data in _rules:
                rules_item = MailRule.from_dict(rules_item_data)

                rules.append(rules_item)

        _security = d.pop("security", UNSET)
        security: MailAccountPatchSecurity | Unset
        if isinstance(_security, Unset):
            security = UNSET
        else:
            security = MailAccountPatchSecurity(_security)

        username = d.pop("username", UNSET)

        mail_account_patch = cls(
            enabled=enabled,
            folder=folder,
            imap_host=imap_host,
            imap_port=imap_port,
            name=name,
            password=password,
            poll_minutes=poll_minutes,
            rules=rules,
            security=security,
            username=username,
        )

        return mail_account_patch

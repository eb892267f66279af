from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.mail_account_create_security import MailAccountCreateSecurity
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.mail_rule import MailRule


T = TypeVar("T", bound="MailAccountCreate")


@_attrs_define
class MailAccountCreate:
    """POST /mail-accounts.

    Attributes:
        imap_host (str):
        name (str):
        password (str): Write-only: stored encrypted, never answered.
        username (str):
        enabled (bool | Unset):  Default: True.
        folder (str | Unset):  Default: 'INBOX'.
        imap_port (int | None | Unset): Default 993 for ssl, 143 otherwise.
        poll_minutes (int | Unset):  Default: 10.
        rules (list[MailRule] | Unset):
        security (MailAccountCreateSecurity | Unset): ssl (implicit TLS), starttls (required), none. Default:
            MailAccountCreateSecurity.SSL.
    """

    imap_host: str
    name: str
    password: str
    username: str
    enabled: bool | Unset = True
    folder: str | Unset = "INBOX"
    imap_port: int | None | Unset = UNSET
    poll_minutes: int | Unset = 10
    rules: list[MailRule] | Unset = UNSET
    security: MailAccountCreateSecurity | Unset = MailAccountCreateSecurity.SSL

    def to_dict(self) -> dict[str, Any]:
        imap_host = self.imap_host

        name = self.name

        password = self.password

        username = self.username

        enabled = self.enabled

        folder = self.folder

        imap_port: int | None | Unset
        if isinstance(self.imap_port, Unset):
            imap_port = UNSET
        else:
            imap_port = self.imap_port

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

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "imapHost": imap_host,
                "name": name,
                "password": password,
                "username": username,
            }
        )
        if enabled is not UNSET:
            field_dict["enabled"] = enabled
        if folder is not UNSET:
            field_dict["folder"] = folder
        if imap_port is not UNSET:
            field_dict["imapPort"] = imap_port
        if poll_minutes is not UNSET:
            field_dict["pollMinutes"] = poll_minutes
        if rules is not UNSET:
            field_dict["rules"] = rules
        if security is not UNSET:
            field_dict["security"] = security

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.mail_rule import MailRule

        d = dict(src_dict)
        imap_host = d.pop("imapHost")

        name = d.pop("name")

        password = d.pop("password")

        username = d.pop("username")

        enabled = d.pop("enabled", UNSET)

        folder = d.pop("folder", UNSET)

        def _parse_imap_port(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        imap_port = _parse_imap_port(d.pop("imapPort", UNSET))

        poll_minutes = d.pop("pollMinutes", UNSET)

        _rules = d.pop("rules", UNSET)
        rules: list[MailRule] | Unset = UNSET
        if _rules is not UNSET:
            rules = []
            for rules_item_data in _rules:
                rules_item = MailRule.from_dict(rules_item_data)

                rules.append(rules_item)

        _security = d.pop("security", UNSET)
        security: MailAccountCreateSecurity | Unset
        if isinstance(_security, Unset):
            security = UNSET
        else:
            security = MailAccountCreateSecurity(_security)

        mail_account_create = cls(
            imap_host=imap_host,
            name=name,
            password=password,
            username=username,
            enabled=enabled,
            folder=folder,
            imap_port=imap_port,
            poll_minutes=poll_minutes,
            rules=rules,
            security=security,
        )

        return mail_account_create

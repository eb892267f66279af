from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.mail_rule_out import MailRuleOut


T = TypeVar("T", bound="MailAccount")


@_attrs_define
class MailAccount:
    """
    Attributes:
        created_at (datetime.datetime):
        enabled (bool):
        failures (int): Polls failed in a row (each waits longer).
        folder (str):
        id (str):
        imap_host (str):
        imap_port (int):
        last_error (None | str): Why the last poll failed; null after a success.
        last_error_code (None | str): The error's code (MAIL_…), as /test says.
        last_polled_at (datetime.datetime | None): When the last poll ended.
        name (str):
        next_poll_at (datetime.datetime | None):
        poll_minutes (int):
        rules (list[MailRuleOut]):
        security (str):
        updated_at (datetime.datetime):
        username (str):
    """

    created_at: datetime.datetime
    enabled: bool
    failures: int
    folder: str
    id: str
    imap_host: str
    imap_port: int
    last_error: None | str
    last_error_code: None | str
    last_polled_at: datetime.datetime | None
    name: str
    next_poll_at: datetime.datetime | None
    poll_minutes: int
    rules: list[MailRuleOut]
    security: str
    updated_at: datetime.datetime
    username: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        enabled = self.enabled

        failures = self.failures

        folder = self.folder

        id = self.id

        imap_host = self.imap_host

        imap_port = self.imap_port

        last_error: None | str
        last_error = self.last_error

        last_error_code: None | str
        last_error_code = self.last_error_code

        last_polled_at: None | str
        if isinstance(self.last_polled_at, datetime.datetime):
            last_polled_at = self.last_polled_at.isoformat()
        else:
            last_polled_at = self.last_polled_at

        name = self.name

        next_poll_at: None | str
        if isinstance(self.next_poll_at, datetime.datetime):
            next_poll_at = self.next_poll_at.isoformat()
        else:
            next_poll_at = self.next_poll_at

        poll_minutes = self.poll_minutes

        rules = []
        for rules_item_data in self.rules:
            rules_item = rules_item_data.to_dict()
            rules.append(rules_item)

        security = self.security

        updated_at = self.updated_at.isoformat()

        username = self.username

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "enabled": enabled,
                "failures": failures,
                "folder": folder,
                "id": id,
                "imapHost": imap_host,
                "imapPort": imap_port,
                "lastError": last_error,
                "lastErrorCode": last_error_code,
                "lastPolledAt": last_polled_at,
                "name": name,
                "nextPollAt": next_poll_at,
                "pollMinutes": poll_minutes,
                "rules": rules,
                "security": security,
                "updatedAt": updated_at,
                "username": username,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.mail_rule_out import MailRuleOut

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        enabled = d.pop("enabled")

        failures = d.pop("failures")

        folder = d.pop("folder")

        id = d.pop("id")

        imap_host = d.pop("imapHost")

        imap_port = d.pop("imapPort")

        def _parse_last_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_error = _parse_last_error(d.pop("lastError"))

        def _parse_last_error_code(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_error_code = _parse_last_error_code(d.pop("lastErrorCode"))

        def _parse_last_polled_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_polled_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_polled_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_polled_at = _parse_last_polled_at(d.pop("lastPolledAt"))

        name = d.pop("name")

        def _parse_next_poll_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_poll_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_poll_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_poll_at = _parse_next_poll_at(d.pop("nextPollAt"))

        poll_minutes = d.pop("pollMinutes")

        rules = []
        _rules = d.pop("rules")
        for rules_item_data in _rules:
            rules_item = MailRuleOut.from_dict(rules_item_data)

            rules.append(rules_item)

        security = d.pop("security")

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        username = d.pop("username")

        mail_account = cls(
            created_at=created_at,
            enabled=enabled,
            failures=failures,
            folder=folder,
            id=id,
            imap_host=imap_host,
            imap_port=imap_port,
            last_error=last_error,
            last_error_code=last_error_code,
            last_polled_at=last_polled_at,
            name=name,
            next_poll_at=next_poll_at,
            poll_minutes=poll_minutes,
            rules=rules,
            security=security,
            updated_at=updated_at,
            username=username,
        )

        mail_account.additional_properties = d
        return mail_account

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

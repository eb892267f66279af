from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.mail_rule_afterimport import MailRuleAfterimport
from ..types import UNSET, Unset

T = TypeVar("T", bound="MailRule")


@_attrs_define
class MailRule:
    """Which messages an account imports and what then happens to them on the server. A
    message goes by the first rule it matches; an account without rules imports every
    message's attachments and marks it read.

        Attributes:
            after_import (MailRuleAfterimport | Unset): What happens to the message. Default: MailRuleAfterimport.MARKREAD.
            attachments_only (bool | Unset): Only messages with attachments match; the body is not imported. Default: True.
            from_contains (None | str | Unset): The From header contains this (any case).
            import_body (bool | Unset): The message's text also becomes a document (with attachmentsOnly off). Default:
                False.
            move_to (None | str | Unset): The folder `move` puts it in.
            subject_contains (None | str | Unset): The Subject contains this (any case).
            tags (list[str] | Unset):
    """

    after_import: MailRuleAfterimport | Unset = MailRuleAfterimport.MARKREAD
    attachments_only: bool | Unset = True
    from_contains: None | str | Unset = UNSET
    import_body: bool | Unset = False
    move_to: None | str | Unset = UNSET
    subject_contains: None | str | Unset = UNSET
    tags: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        after_import: str | Unset = UNSET
        if not isinstance(self.after_import, Unset):
            after_import = self.after_import.value

        attachments_only = self.attachments_only

        from_contains: None | str | Unset
        if isinstance(self.from_contains, Unset):
            from_contains = UNSET
        else:
            from_contains = self.from_contains

        import_body = self.import_body

        move_to: None | str | Unset
        if isinstance(self.move_to, Unset):
            move_to = UNSET
        else:
            move_to = self.move_to

        subject_contains: None | str | Unset
        if isinstance(self.subject_contains, Unset):
            subject_contains = UNSET
        else:
            subject_contains = self.subject_contains

        tags: list[str] | Unset = UNSET
        if not isinstance(self.tags, Unset):
            tags = self.tags

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if after_import is not UNSET:
            field_dict["afterImport"] = after_import
        if attachments_only is not UNSET:
            field_dict["attachmentsOnly"] = attachments_only
        if from_contains is not UNSET:
            field_dict["fromContains"] = from_contains
        if import_body is not UNSET:
            field_dict["importBody"] = import_body
        if move_to is not UNSET:
            field_dict["moveTo"] = move_to
        if subject_contains is not UNSET:
            field_dict["subjectContains"] = subject_contains
        if tags is not UNSET:
            field_dict["tags"] = tags

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        _after_import = d.pop("afterImport", UNSET)
        after_import: MailRuleAfterimport | Unset
        if isinstance(_after_import, Unset):
            after_import = UNSET
        else:
            after_import = MailRuleAfterimport(_after_import)

        attachments_only = d.pop("attachmentsOnly", UNSET)

        def _parse_from_contains(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        from_contains = _parse_from_contains(d.pop("fromContains", UNSET))

        import_body = d.pop("importBody", UNSET)

        def _parse_move_to(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        move_to = _parse_move_to(d.pop("moveTo", UNSET))

        def _parse_subject_contains(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        subject_contains = _parse_subject_contains(d.pop("subjectContains", UNSET))

        tags = cast(list[str], d.pop("tags", UNSET))

        mail_rule = cls(
            after_import=after_import,
            attachments_only=attachments_only,
            from_contains=from_contains,
            import_body=import_body,
            move_to=move_to,
            subject_contains=subject_contains,
            tags=tags,
        )

        return mail_rule

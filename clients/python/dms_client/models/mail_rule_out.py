from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="MailRuleOut")


@_attrs_define
class MailRuleOut:
    """
    Attributes:
        after_import (str):
        attachments_only (bool):
        from_contains (None | str):
        import_body (bool):
        move_to (None | str):
        subject_contains (None | str):
        tags (list[str]):
    """

    after_import: str
    attachments_only: bool
    from_contains: None | str
    import_body: bool
    move_to: None | str
    subject_contains: None | str
    tags: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        after_import = self.after_import

        attachments_only = self.attachments_only

        from_contains: None | str
        from_contains = self.from_contains

        import_body = self.import_body

        move_to: None | str
        move_to = self.move_to

        subject_contains: None | str
        subject_contains = self.subject_contains

        tags = self.tags

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "afterImport": after_import,
                "attachmentsOnly": attachments_only,
                "fromContains": from_contains,
                "importBody": import_body,
                "moveTo": move_to,
                "subjectContains": subject_contains,
                "tags": tags,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        after_import = d.pop("afterImport")

        attachments_only = d.pop("attachmentsOnly")

        def _parse_from_contains(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        from_contains = _parse_from_contains(d.pop("fromContains"))

        import_body = d.pop("importBody")

        def _parse_move_to(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        move_to = _parse_move_to(d.pop("moveTo"))

        def _parse_subject_contains(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        subject_contains = _parse_subject_contains(d.pop("subjectContains"))

        tags = cast(list[str], d.pop("tags"))

        mail_rule_out = cls(
            after_import=after_import,
            attachments_only=attachments_only,
            from_contains=from_contains,
            import_body=import_body,
            move_to=move_to,
            subject_contains=subject_contains,
            tags=tags,
        )

        mail_rule_out.additional_properties = d
        return mail_rule_out

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

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.note_author_type import NoteAuthorType

T = TypeVar("T", bound="NoteAuthor")


@_attrs_define
class NoteAuthor:
    """
    Attributes:
        email (None | str): The person's e-mail address; null for an API key.
        id (str): usr_… or key_….
        name (None | str): The person's name, or the key's.
        type_ (NoteAuthorType): A person, or an API key.
    """

    email: None | str
    id: str
    name: None | str
    type_: NoteAuthorType
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        email: None | str
        email = self.email

        id = self.id

        name: None | str
        name = self.name

        type_ = self.type_.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "email": email,
                "id": id,
                "name": name,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_email(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        email = _parse_email(d.pop("email"))

        id = d.pop("id")

        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(d.pop("name"))

        type_ = NoteAuthorType(d.pop("type"))

        note_author = cls(
            email=email,
            id=id,
            name=name,
            type_=type_,
        )

        note_author.additional_properties = d
        return note_author

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

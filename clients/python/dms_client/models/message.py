from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.message_generator_type_0 import MessageGeneratorType0
from ..models.message_role import MessageRole

if TYPE_CHECKING:
    from ..models.citation import Citation


T = TypeVar("T", bound="Message")


@_attrs_define
class Message:
    """
    Attributes:
        citations (list[Citation]):
        content (str):
        created_at (datetime.datetime):
        generator (MessageGeneratorType0 | None): What wrote an answer; null on questions.
        generator_error (None | str): Why the configured LLM was not used for this answer (it fell back).
        id (str):
        role (MessageRole):
    """

    citations: list[Citation]
    content: str
    created_at: datetime.datetime
    generator: MessageGeneratorType0 | None
    generator_error: None | str
    id: str
    role: MessageRole
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        citations = []
        for citations_item_data in self.citations:
            citations_item = citations_item_data.to_dict()
            citations.append(citations_item)

        content = self.content

        created_at = self.created_at.isoformat()

        generator: None | str
        if isinstance(self.generator, MessageGeneratorType0):
            generator = self.generator.value
        else:
            generator = self.generator

        generator_error: None | str
        generator_error = self.generator_error

        id = self.id

        role = self.role.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "citations": citations,
                "content": content,
                "createdAt": created_at,
                "generator": generator,
                "generatorError": generator_error,
                "id": id,
                "role": role,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.citation import Citation

        d = dict(src_dict)
        citations = []
        _citations = d.pop("citations")
        for citations_item_data in _citations:
            citations_item = Citation.from_dict(citations_item_data)

            citations.append(citations_item)

        content = d.pop("content")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_generator(data: object) -> MessageGeneratorType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                generator_type_0 = MessageGeneratorType0(data)

                return generator_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MessageGeneratorType0 | None, data)

        generator = _parse_generator(d.pop("generator"))

        def _parse_generator_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        generator_error = _parse_generator_error(d.pop("generatorError"))

        id = d.pop("id")

        role = MessageRole(d.pop("role"))

        message = cls(
            citations=citations,
            content=content,
            created_at=created_at,
            generator=generator,
            generator_error=generator_error,
            id=id,
            role=role,
        )

        message.additional_properties = d
        return message

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

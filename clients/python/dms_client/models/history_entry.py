from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.history_entry_action import HistoryEntryAction

T = TypeVar("T", bound="HistoryEntry")


@_attrs_define
class HistoryEntry:
    """
    Attributes:
        action (HistoryEntryAction):
        actor (str): "user:usr_…", "key:key_…" or "system:workflow".
        actor_label (None | str):
        at (datetime.datetime):
        comment (None | str):
        step (int | None):
    """

    action: HistoryEntryAction
    actor: str
    actor_label: None | str
    at: datetime.datetime
    comment: None | str
    step: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        action = self.action.value

        actor = self.actor

        actor_label: None | str
        actor_label = self.actor_label

        at = self.at.isoformat()

        comment: None | str
        comment = self.comment

        step: int | None
        step = self.step

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "action": action,
                "actor": actor,
                "actorLabel": actor_label,
                "at": at,
                "comment": comment,
                "step": step,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        action = HistoryEntryAction(d.pop("action"))

        actor = d.pop("actor")

        def _parse_actor_label(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        actor_label = _parse_actor_label(d.pop("actorLabel"))

        at = datetime.datetime.fromisoformat(d.pop("at"))

        def _parse_comment(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        comment = _parse_comment(d.pop("comment"))

        def _parse_step(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        step = _parse_step(d.pop("step"))

        history_entry = cls(
            action=action,
            actor=actor,
            actor_label=actor_label,
            at=at,
            comment=comment,
            step=step,
        )

        history_entry.additional_properties = d
        return history_entry

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

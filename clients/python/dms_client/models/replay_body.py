from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ReplayBody")


@_attrs_define
class ReplayBody:
    """POST /webhooks/{id}/replay: the events of [from, to) (at most 31 days, 10,000 events).

    Attributes:
        from_ (datetime.datetime): Start, inclusive (RFC 3339).
        to (datetime.datetime): End, exclusive (RFC 3339).
    """

    from_: datetime.datetime
    to: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        from_ = self.from_.isoformat()

        to = self.to.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "from": from_,
                "to": to,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        from_ = datetime.datetime.fromisoformat(d.pop("from"))

        to = datetime.datetime.fromisoformat(d.pop("to"))

        replay_body = cls(
            from_=from_,
            to=to,
        )

        return replay_body

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.step_mode import StepMode
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.approver import Approver


T = TypeVar("T", bound="Step")


@_attrs_define
class Step:
    """
    Attributes:
        approvers (list[Approver]):
        name (str):
        due_in_hours (int | None | Unset): Escalate when the step waits longer.
        escalate_to (Approver | None | Unset): Added as an approver when the step is overdue or nobody can act.
        mode (StepMode | Unset): any: one approval completes the step; all: every approver must. Default: StepMode.ANY.
    """

    approvers: list[Approver]
    name: str
    due_in_hours: int | None | Unset = UNSET
    escalate_to: Approver | None | Unset = UNSET
    mode: StepMode | Unset = StepMode.ANY

    def to_dict(self) -> dict[str, Any]:
        from ..models.approver import Approver

        approvers = []
        for approvers_item_data in self.approvers:
            approvers_item = approvers_item_data.to_dict()
            approvers.append(approvers_item)

        name = self.name

        due_in_hours: int | None | Unset
        if isinstance(self.due_in_hours, Unset):
            due_in_hours = UNSET
        else:
            due_in_hours = self.due_in_hours

        escalate_to: dict[str, Any] | None | Unset
        if isinstance(self.escalate_to, Unset):
            escalate_to = UNSET
        elif isinstance(self.escalate_to, Approver):
            escalate_to = self.escalate_to.to_dict()
        else:
            escalate_to = self.escalate_to

        mode: str | Unset = UNSET
        if not isinstance(self.mode, Unset):
            mode = self.mode.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "approvers": approvers,
                "name": name,
            }
        )
        if due_in_hours is not UNSET:
            field_dict["dueInHours"] = due_in_hours
        if escalate_to is not UNSET:
            field_dict["escalateTo"] = escalate_to
        if mode is not UNSET:
            field_dict["mode"] = mode

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.approver import Approver

        d = dict(src_dict)
        approvers = []
        _approvers = d.pop("approvers")
        for approvers_item_data in _approvers:
            approvers_item = Approver.from_dict(approvers_item_data)

            approvers.append(approvers_item)

        name = d.pop("name")

        def _parse_due_in_hours(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        due_in_hours = _parse_due_in_hours(d.pop("dueInHours", UNSET))

        def _parse_escalate_to(data: object) -> Approver | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                escalate_to_type_0 = Approver.from_dict(data)

                return escalate_to_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Approver | None | Unset, data)

        escalate_to = _parse_escalate_to(d.pop("escalateTo", UNSET))

        _mode = d.pop("mode", UNSET)
        mode: StepMode | Unset
        if isinstance(_mode, Unset):
            mode = UNSET
        else:
            mode = StepMode(_mode)

        step = cls(
            approvers=approvers,
            name=name,
            due_in_hours=due_in_hours,
            escalate_to=escalate_to,
            mode=mode,
        )

        return step

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.step_out_mode import StepOutMode
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.approver_ref import ApproverRef


T = TypeVar("T", bound="StepOut")


@_attrs_define
class StepOut:
    """
    Attributes:
        approvers (list[ApproverRef]):
        mode (StepOutMode):
        name (str):
        due_in_hours (int | None | Unset):
        escalate_to (ApproverRef | None | Unset):
    """

    approvers: list[ApproverRef]
    mode: StepOutMode
    name: str
    due_in_hours: int | None | Unset = UNSET
    escalate_to: ApproverRef | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.approver_ref import ApproverRef

        approvers = []
        for approvers_item_data in self.approvers:
            approvers_item = approvers_item_data.to_dict()
            approvers.append(approvers_item)

        mode = self.mode.value

        name = self.name

        due_in_hours: int | None | Unset
        if isinstance(self.due_in_hours, Unset):
            due_in_hours = UNSET
        else:
            due_in_hours = self.due_in_hours

        escalate_to: dict[str, Any] | None | Unset
        if isinstance(self.escalate_to, Unset):
            escalate_to = UNSET
        elif isinstance(self.escalate_to, ApproverRef):
            escalate_to = self.escalate_to.to_dict()
        else:
            escalate_to = self.escalate_to

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "approvers": approvers,
                "mode": mode,
                "name": name,
            }
        )
        if due_in_hours is not UNSET:
            field_dict["dueInHours"] = due_in_hours
        if escalate_to is not UNSET:
            field_dict["escalateTo"] = escalate_to

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.approver_ref import ApproverRef

        d = dict(src_dict)
        approvers = []
        _approvers = d.pop("approvers")
        for approvers_item_data in _approvers:
            approvers_item = ApproverRef.from_dict(approvers_item_data)

            approvers.append(approvers_item)

        mode = StepOutMode(d.pop("mode"))

        name = d.pop("name")

        def _parse_due_in_hours(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        due_in_hours = _parse_due_in_hours(d.pop("dueInHours", UNSET))

        def _parse_escalate_to(data: object) -> ApproverRef | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                escalate_to_type_0 = ApproverRef.from_dict(data)

                return escalate_to_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ApproverRef | None | Unset, data)

        escalate_to = _parse_escalate_to(d.pop("escalateTo", UNSET))

        step_out = cls(
            approvers=approvers,
            mode=mode,
            name=name,
            due_in_hours=due_in_hours,
            escalate_to=escalate_to,
        )

        step_out.additional_properties = d
        return step_out

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

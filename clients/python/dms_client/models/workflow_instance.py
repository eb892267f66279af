from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.workflow_instance_state import WorkflowInstanceState

if TYPE_CHECKING:
    from ..models.history_entry import HistoryEntry
    from ..models.person import Person
    from ..models.subject import Subject


T = TypeVar("T", bound="WorkflowInstance")


@_attrs_define
class WorkflowInstance:
    """
    Attributes:
        completed_at (datetime.datetime | None):
        created_at (datetime.datetime):
        current_approvers (list[Person]): Who can act now.
        current_step (int | None): 0-based; null when finished.
        current_step_name (None | str):
        definition_id (str):
        definition_version (int):
        history (list[HistoryEntry]):
        id (str):
        stalled_reason (None | str):
        state (WorkflowInstanceState):
        step_due_at (datetime.datetime | None):
        subject (Subject):
        updated_at (datetime.datetime):
    """

    completed_at: datetime.datetime | None
    created_at: datetime.datetime
    current_approvers: list[Person]
    current_step: int | None
    current_step_name: None | str
    definition_id: str
    definition_version: int
    history: list[HistoryEntry]
    id: str
    stalled_reason: None | str
    state: WorkflowInstanceState
    step_due_at: datetime.datetime | None
    subject: Subject
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        completed_at: None | str
        if isinstance(self.completed_at, datetime.datetime):
            completed_at = self.completed_at.isoformat()
        else:
            completed_at = self.completed_at

        created_at = self.created_at.isoformat()

        current_approvers = []
        for current_approvers_item_data in self.current_approvers:
            current_approvers_item = current_approvers_item_data.to_dict()
            current_approvers.append(current_approvers_item)

        current_step: int | None
        current_step = self.current_step

        current_step_name: None | str
        current_step_name = self.current_step_name

        definition_id = self.definition_id

        definition_version = self.definition_version

        history = []
        for history_item_data in self.history:
            history_item = history_item_data.to_dict()
            history.append(history_item)

        id = self.id

        stalled_reason: None | str
        stalled_reason = self.stalled_reason

        state = self.state.value

        step_due_at: None | str
        if isinstance(self.step_due_at, datetime.datetime):
            step_due_at = self.step_due_at.isoformat()
        else:
            step_due_at = self.step_due_at

        subject = self.subject.to_dict()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "completedAt": completed_at,
                "createdAt": created_at,
                "currentApprovers": current_approvers,
                "currentStep": current_step,
                "currentStepName": current_step_name,
                "definitionId": definition_id,
                "definitionVersion": definition_version,
                "history": history,
                "id": id,
                "stalledReason": stalled_reason,
                "state": state,
                "stepDueAt": step_due_at,
                "subject": subject,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.history_entry import HistoryEntry
        from ..models.person import Person
        from ..models.subject import Subject

        d = dict(src_dict)

        def _parse_completed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                completed_at_type_0 = datetime.datetime.fromisoformat(data)

                return completed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        completed_at = _parse_completed_at(d.pop("completedAt"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        current_approvers = []
        _current_approvers = d.pop("currentApprovers")
        for current_approvers_item_data in _current_approvers:
            current_approvers_item = Person.from_dict(current_approvers_item_data)

            current_approvers.append(current_approvers_item)

        def _parse_current_step(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        current_step = _parse_current_step(d.pop("currentStep"))

        def _parse_current_step_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        current_step_name = _parse_current_step_name(d.pop("currentStepName"))

        definition_id = d.pop("definitionId")

        definition_version = d.pop("definitionVersion")

        history = []
        _history = d.pop("history")
        for history_item_data in _history:
            history_item = HistoryEntry.from_dict(history_item_data)

            history.append(history_item)

        id = d.pop("id")

        def _parse_stalled_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        stalled_reason = _parse_stalled_reason(d.pop("stalledReason"))

        state = WorkflowInstanceState(d.pop("state"))

        def _parse_step_due_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                step_due_at_type_0 = datetime.datetime.fromisoformat(data)

                return step_due_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        step_due_at = _parse_step_due_at(d.pop("stepDueAt"))

        subject = Subject.from_dict(d.pop("subject"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        workflow_instance = cls(
            completed_at=completed_at,
            created_at=created_at,
            current_approvers=current_approvers,
            current_step=current_step,
            current_step_name=current_step_name,
            definition_id=definition_id,
            definition_version=definition_version,
            history=history,
            id=id,
            stalled_reason=stalled_reason,
            state=state,
            step_due_at=step_due_at,
            subject=subject,
            updated_at=updated_at,
        )

        workflow_instance.additional_properties = d
        return workflow_instance

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

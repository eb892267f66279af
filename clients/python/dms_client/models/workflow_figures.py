from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.workflow_figures_bystate import WorkflowFiguresBystate


T = TypeVar("T", bound="WorkflowFigures")


@_attrs_define
class WorkflowFigures:
    """
    Attributes:
        by_state (WorkflowFiguresBystate):
        median_cycle_hours (float | None): Median hours from start to approval or rejection, of the instances decided in
            the last 30 days (today and the 29 days before); null if none.
    """

    by_state: WorkflowFiguresBystate
    median_cycle_hours: float | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        by_state = self.by_state.to_dict()

        median_cycle_hours: float | None
        median_cycle_hours = self.median_cycle_hours

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "byState": by_state,
                "medianCycleHours": median_cycle_hours,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.workflow_figures_bystate import WorkflowFiguresBystate

        d = dict(src_dict)
        by_state = WorkflowFiguresBystate.from_dict(d.pop("byState"))

        def _parse_median_cycle_hours(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        median_cycle_hours = _parse_median_cycle_hours(d.pop("medianCycleHours"))

        workflow_figures = cls(
            by_state=by_state,
            median_cycle_hours=median_cycle_hours,
        )

        workflow_figures.additional_properties = d
        return workflow_figures

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

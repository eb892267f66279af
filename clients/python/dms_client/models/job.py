from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.job_status import JobStatus

if TYPE_CHECKING:
    from ..models.job_error import JobError


T = TypeVar("T", bound="Job")


@_attrs_define
class Job:
    """
    Attributes:
        created_at (datetime.datetime):
        done (int): Documents finished so far, failed ones included.
        errors (list[JobError]): The first 100 failures.
        failed (int): Documents the operations failed on.
        finished_at (datetime.datetime | None):
        id (str):
        status (JobStatus):
        total (int): The documents the job works on (0 until it starts).
        type_ (str): What the job does: `documents.bulk`, or `matching.apply` (a matching rule run over existing
            documents).
    """

    created_at: datetime.datetime
    done: int
    errors: list[JobError]
    failed: int
    finished_at: datetime.datetime | None
    id: str
    status: JobStatus
    total: int
    type_: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        done = self.done

        errors = []
        for errors_item_data in self.errors:
            errors_item = errors_item_data.to_dict()
            errors.append(errors_item)

        failed = self.failed

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        id = self.id

        status = self.status.value

        total = self.total

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "done": done,
                "errors": errors,
                "failed": failed,
                "finishedAt": finished_at,
                "id": id,
                "status": status,
                "total": total,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.job_error import JobError

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        done = d.pop("done")

        errors = []
        _errors = d.pop("errors")
        for errors_item_data in _errors:
            errors_item = JobError.from_dict(errors_item_data)

            errors.append(errors_item)

        failed = d.pop("failed")

        def _parse_finished_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        finished_at = _parse_finished_at(d.pop("finishedAt"))

        id = d.pop("id")

        status = JobStatus(d.pop("status"))

        total = d.pop("total")

        type_ = d.pop("type")

        job = cls(
            created_at=created_at,
            done=done,
            errors=errors,
            failed=failed,
            finished_at=finished_at,
            id=id,
            status=status,
            total=total,
            type_=type_,
        )

        job.additional_properties = d
        return job

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

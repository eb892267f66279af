"""Domain errors: raised by models and services, rendered by the API as the envelope and by
the portal and CLI in their own way. Codes and statuses follow CONTRACT §2."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass


@dataclass
class FieldError:
    code: str
    message: str
    field: str | None = None

    def as_dict(self) -> dict[str, str]:
        out = {"code": self.code, "message": self.message}
        if self.field is not None:
            out["field"] = self.field
        return out


@dataclass
class DomainError(Exception):
    """An error with a stable code, an HTTP status and one or more error objects."""

    status: int
    code: str
    message: str
    field: str | None = None
    extra: list[FieldError] = dataclasses.field(default_factory=list)
    headers: dict[str, str] = dataclasses.field(default_factory=dict)

    def __post_init__(self) -> None:
        super().__init__(self.message)

    @property
    def errors(self) -> list[FieldError]:
        return [FieldError(self.code, self.message, self.field), *self.extra]


def not_found(what: str = "Resource") -> DomainError:
    return DomainError(404, "NOT_FOUND", f"{what} not found.")


def conflict(message: str) -> DomainError:
    return DomainError(409, "CONFLICT", message)


def invalid_parameter(message: str, field_name: str | None = None) -> DomainError:
    return DomainError(400, "INVALID_PARAMETER", message, field_name)


def validation_failed(errors: list[FieldError]) -> DomainError:
    """422 with one error object per bad field."""
    first, *rest = errors
    return DomainError(422, first.code, first.message, first.field, rest)

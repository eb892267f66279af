"""The `limit` and `cursor` query parameters every list endpoint shares (CONTRACT §5). The
cursor itself is services/core/cursors.py's, the keyset query services/core/paging.py's."""

from __future__ import annotations

from pydantic import BaseModel, Field, field_validator

from errors import DomainError
from services.core.cursors import decode_cursor

DEFAULT_LIMIT = 50
MAX_LIMIT = 200


class PageQuery(BaseModel):
    """limit and cursor, shared by every list endpoint's query model."""

    model_config = {"extra": "forbid"}

    limit: int = Field(
        DEFAULT_LIMIT, ge=1, le=2**31 - 1, description="Page size, 1-200 (larger is clamped)."
    )
    cursor: str | None = Field(None, max_length=2048, description="nextCursor of the last page.")

    @field_validator("limit", mode="after")
    @classmethod
    def _clamp(cls, value: int) -> int:
        return min(value, MAX_LIMIT)


def id_position(cursor: str | None, binding: str) -> list | None:
    """The keyset position of a list ordered by id alone (webhooks, notifications, …): None
    for the first page, else the id the last page ended at."""
    if cursor is None:
        return None
    position = decode_cursor(cursor, binding)
    if len(position) != 1 or not isinstance(position[0], str):
        raise DomainError(400, "INVALID_CURSOR", "This cursor is not valid.", "cursor")
    return position

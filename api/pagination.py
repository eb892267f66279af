"""The `limit` and `cursor` query parameters every list endpoint shares (CONTRACT §5). The
cursor itself is services/core/cursors.py's, the keyset query services/core/paging.py's."""

from __future__ import annotations

from pydantic import BaseModel, Field, field_validator

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

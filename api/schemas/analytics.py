"""Query models of the analytics resource; the answers are services/analytics/wire.py's."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from services.analytics.queries import METRICS

Metric = Literal[tuple(METRICS)]  # type: ignore[valid-type]


class UsageQuery(BaseModel):
    """GET /analytics/usage."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    metric: Metric = Field(  # type: ignore[valid-type]
        description="apiRequests, uploads, storageBytes (CONTRACT §9), and documents, "
        "webhookDeliveries, webhookDeliveriesFailed, workflowsFinished, workflowCycleHours."
    )
    from_: datetime | None = Field(
        None,
        alias="from",
        description="Start (UTC; rounded down to its hour or day). Default: 30 days (24 hours "
        "with granularity=hour) before `to`.",
    )
    to: datetime | None = Field(None, description="End, exclusive (UTC). Default: now.")
    granularity: Literal["hour", "day"] = Field(
        "day", description="At most 400 days of days or 30 days of hours."
    )
    key_id: str | None = Field(
        None,
        alias="keyId",
        max_length=40,
        description="apiRequests only: the requests made with this API key (key_…).",
    )

    @field_validator("from_", "to")
    @classmethod
    def _assume_utc(cls, value: datetime | None) -> datetime | None:
        if value is not None and value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC) if value is not None else None

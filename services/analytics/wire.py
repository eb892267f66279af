"""The analytics resource as it goes over the wire, both ways (CONTRACT §9): the usage query,
the summary's figures and the usage points."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

import clock
from services.analytics.queries import METRICS
from services.core.wire import Timestamp, Wire

# --- requests ----------------------------------------------------------------------------------


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
        "with granularity=hour) before `to`. Must be earlier than `to`: otherwise 400 "
        "INVALID_PARAMETER (a rule between two parameters, which a schema cannot state).",
    )
    to: datetime | None = Field(None, description="End, exclusive (UTC). Default: now.")
    granularity: Literal["hour", "day"] = Field(
        "day", description="At most 400 days of days or 30 days of hours."
    )
    key_id: str | None = Field(
        None,
        alias="keyId",
        max_length=40,
        description="apiRequests only (with another metric: 400 INVALID_PARAMETER): the "
        "requests made with this API key (key_…).",
    )

    @field_validator("from_", "to")
    @classmethod
    def _assume_utc(cls, value: datetime | None) -> datetime | None:
        if value is not None and value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC) if value is not None else None


# --- responses ---------------------------------------------------------------------------------


class DocumentFigures(Wire):
    total: int = Field(description="Documents stored: active, archived and in the trash.")
    by_status: dict[str, int] = Field(description="active, archived, deleted (in the trash).")
    by_content_type: dict[str, int] = Field(description="Stored documents by current type.")


class WorkflowFigures(Wire):
    by_state: dict[str, int]
    median_cycle_hours: float | None = Field(
        description="Median hours from start to approval or rejection, of the instances "
        "decided in the last 30 days (today and the 29 days before); null if none."
    )


class WebhookFigures(Wire):
    deliveries: int = Field(description="Deliveries closed in the last 30 days.")
    success_rate: float | None = Field(
        description="Succeeded / (succeeded + failed) over those deliveries; null if none."
    )


class ApiRequestFigures(Wire):
    last_hour: int
    last24_hours: int


class AnalyticsSummaryOut(Wire):
    documents: DocumentFigures
    storage_bytes: int = Field(description="Bytes of every stored version of every document.")
    workflows: WorkflowFigures
    webhooks: WebhookFigures
    api_requests: ApiRequestFigures


class UsagePointOut(Wire):
    at: Timestamp = Field(description="Start of the hour or day (UTC).")
    value: float = Field(description="Count, bytes or hours; 0 for a period with nothing.")


def summary_data(figures: dict) -> dict:
    return AnalyticsSummaryOut.model_validate(figures).model_dump(by_alias=True, mode="json")


def points_data(buckets: list[datetime], values: list) -> list[dict]:
    return [{"at": clock.rfc3339(b), "value": v} for b, v in zip(buckets, values, strict=True)]

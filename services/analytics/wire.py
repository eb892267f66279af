"""The analytics answers as they go over the wire (CONTRACT §9)."""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

import clock
from services.core.wire import Timestamp, Wire


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

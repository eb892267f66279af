"""Request models of the webhooks resource (camelCase on the wire); the responses are
services/webhooks/wire.py's. The URL rules and the event catalogue are the service's."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator
from pydantic.alias_generators import to_camel

from api.pagination import PageQuery
from api.schemas.fields import absent, reject_null
from services.core.outbound import MAX_URL_LENGTH
from services.webhooks.endpoints import MAX_EVENT_TYPES

Url = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_URL_LENGTH)
]
EventName = Annotated[str, StringConstraints(min_length=1, max_length=80)]
Description = Annotated[str, StringConstraints(strip_whitespace=True, max_length=500)]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", alias_generator=to_camel, populate_by_name=True)


class WebhookCreate(_Body):
    """POST /webhooks."""

    url: Url = Field(description="https:// URL that receives the events (POST, JSON).")
    events: list[EventName] = Field(
        min_length=1,
        max_length=MAX_EVENT_TYPES,
        description='Event types (GET /webhooks/event-types), or ["*"] for all, new ones too.',
    )
    description: Description | None = None
    enabled: bool = True


class WebhookPatch(_Body):
    """PATCH /webhooks/{id}: only the fields sent change; a null description clears it."""

    # Optional but never null (refused below): the schema must not say "nullable".
    url: Url = absent()
    events: list[EventName] = Field(
        default=None,
        min_length=1,
        max_length=MAX_EVENT_TYPES,
        json_schema_extra=lambda schema: schema.pop("default", None),
    )
    description: Description | None = None
    enabled: bool = absent()

    @field_validator("url", "events", "enabled", mode="before")
    @classmethod
    def _not_null(cls, value: Any) -> Any:
        return reject_null(value)


class WebhookListQuery(PageQuery):
    """GET /webhooks: newest first."""


class DeliveryListQuery(PageQuery):
    """GET /webhooks/{id}/deliveries: newest first, each with its attempts."""

    status: Literal["pending", "retrying", "succeeded", "failed"] | None = None


class ReplayBody(_Body):
    """POST /webhooks/{id}/replay: the events of [from, to) (at most 31 days, 10,000 events)."""

    from_: datetime = Field(alias="from", description="Start, inclusive (RFC 3339).")
    to: datetime = Field(description="End, exclusive (RFC 3339).")


class ReplayOut(BaseModel):
    events: int = Field(description="How many events were queued for the endpoint.")

"""Webhook endpoints, deliveries, replays and the event catalogue as they go over the wire,
both ways (CONTRACT §9; camelCase): one pydantic model each, which validates the requests or
produces the JSON, and describes it in OpenAPI. The URL rules and the event catalogue are the
service's."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    TypeAdapter,
    WithJsonSchema,
    field_validator,
)
from pydantic.alias_generators import to_camel

from models import WebhookDelivery, WebhookEndpoint
from services.core.outbound import MAX_URL_LENGTH
from services.core.wire import PageQuery, Timestamp, Wire, absent, reject_null
from services.webhooks.catalogue import CATALOGUE, EventType
from services.webhooks.endpoints import MAX_EVENT_TYPES

# --- requests ----------------------------------------------------------------------------------


# The document states the usual rule; the validator's own messages stay (endpoints.py): a
# URL on a private address, or http where the operator allows it, is decided there.
Url = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_URL_LENGTH),
    WithJsonSchema(
        {
            "type": "string",
            "minLength": 1,
            "maxLength": MAX_URL_LENGTH,
            "pattern": "^https://[^/?#]+",
        }
    ),
]
# Not an enum in the document: the catalogue grows, and an enum would make generated clients
# take enum members where callers pass strings (GET /api/v1/webhooks/event-types lists them).
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


# --- responses ---------------------------------------------------------------------------------


class WebhookEndpointOut(Wire):
    id: str
    url: str
    events: list[str] = Field(validation_alias="event_types")
    enabled: bool
    description: str | None
    disabled_reason: str | None
    created_at: Timestamp
    updated_at: Timestamp
    # Until when the secret replaced by the last rotation still signs (both are sent).
    previous_secret_expires_at: Timestamp | None


class WebhookEndpointWithSecretOut(WebhookEndpointOut):
    """The create and rotate-secret answers: the only time the secret is shown."""

    secret: str = Field(description="whsec_…: keep it; it is never shown again.")


class WebhookAttemptOut(Wire):
    at: Timestamp
    status_code: int | None
    latency_ms: int
    error: str | None
    response_excerpt: str | None = Field(description="The first KiB of the answer.")


class WebhookDeliveryOut(Wire):
    id: str
    endpoint_id: str
    event_id: str
    event_type: str
    status: str = Field(description="pending, retrying, succeeded or failed.")
    attempt_count: int
    attempts: list[WebhookAttemptOut]
    next_attempt_at: Timestamp | None
    created_at: Timestamp
    completed_at: Timestamp | None


class WebhookEventTypeOut(Wire):
    type: str
    description: str
    sample: dict[str, Any] = Field(description="A whole event of this type, as delivered.")


_ENDPOINTS = TypeAdapter(list[WebhookEndpointOut])
_DELIVERIES = TypeAdapter(list[WebhookDeliveryOut])


def endpoint_data(endpoint: WebhookEndpoint, secret: str | None = None) -> dict[str, Any]:
    data = WebhookEndpointOut.model_validate(endpoint).model_dump(mode="json", by_alias=True)
    if secret is not None:
        data["secret"] = secret
    return data


def endpoints_data(rows: list[WebhookEndpoint]) -> list[dict[str, Any]]:
    return _ENDPOINTS.dump_python(
        _ENDPOINTS.validate_python(rows, from_attributes=True), mode="json", by_alias=True
    )


def _delivery_fields(delivery: WebhookDelivery) -> dict[str, Any]:
    return {
        "id": delivery.id,
        "endpoint_id": delivery.endpoint_id,
        "event_id": delivery.event_id,
        "event_type": delivery.event.type,
        "status": delivery.status,
        "attempt_count": delivery.attempt_count,
        "attempts": delivery.attempts,
        "next_attempt_at": delivery.next_attempt_at,
        "created_at": delivery.created_at,
        "completed_at": delivery.completed_at,
    }


def delivery_data(delivery: WebhookDelivery) -> dict[str, Any]:
    model = WebhookDeliveryOut.model_validate(_delivery_fields(delivery))
    return model.model_dump(mode="json", by_alias=True)


def deliveries_data(rows: list[WebhookDelivery]) -> list[dict[str, Any]]:
    models = _DELIVERIES.validate_python([_delivery_fields(d) for d in rows], from_attributes=True)
    return _DELIVERIES.dump_python(models, mode="json", by_alias=True)


def _sample_event(event_type: EventType) -> dict[str, Any]:
    return {
        "id": "evt_01jf3x9k2m4n5p6q7r8s9t0v1w",
        "type": event_type.name,
        "createdAt": "2026-11-21T10:00:00Z",
        "tenantId": "acme",
        "data": event_type.sample,
    }


def event_types_data() -> list[dict[str, Any]]:
    return [
        {"type": t.name, "description": t.description, "sample": _sample_event(t)}
        for t in CATALOGUE
    ]

"""Push's wire shapes, both ways (CONTRACT §9): the subscription as a device sends it (field
names `Platform` and `DeviceToken`, exactly the spec's, CONTRACT §4; the checks per platform
are services/push/tokens.py's), the subscription as its owner sees it (a hint, never the
token), and a notification's deliveries, which the notifications resource embeds."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema, field_validator
from sqlalchemy import select

from extensions import db
from models import PushDelivery, PushSubscription
from models.base import in_tenant
from services.core.wire import PageQuery, Timestamp, Wire
from services.push.tokens import MAX_TOKEN_CHARS

# --- requests ----------------------------------------------------------------------------------


_WEB_SUBSCRIPTION = {
    "type": "object",
    "description": "A browser's PushSubscription.toJSON(): endpoint (https URL of a push "
    "service) and keys p256dh (65-byte P-256 point) and auth (16 bytes), base64url.",
    "required": ["endpoint", "keys"],
    "properties": {
        "endpoint": {"type": "string", "format": "uri", "maxLength": 2000},
        "expirationTime": {"type": ["number", "null"]},
        "keys": {
            "type": "object",
            "required": ["p256dh", "auth"],
            "properties": {"p256dh": {"type": "string"}, "auth": {"type": "string"}},
        },
    },
}
DeviceTokenField = Annotated[
    Any,
    WithJsonSchema(
        {
            "description": "ios: the APNs device token (64 hex characters); android: the FCM "
            "registration token; web: the Web Push subscription, as a JSON string or object.",
            "oneOf": [
                {"type": "string", "minLength": 1, "maxLength": MAX_TOKEN_CHARS},
                _WEB_SUBSCRIPTION,
            ],
        }
    ),
]


class PushSubscriptionCreate(BaseModel):
    """POST /push/subscriptions."""

    model_config = ConfigDict(extra="forbid")

    platform: Literal["ios", "android", "web"] = Field(alias="Platform")
    device_token: DeviceTokenField = Field(alias="DeviceToken")

    @field_validator("device_token", mode="before")
    @classmethod
    def _string_or_object(cls, value: Any) -> Any:
        if isinstance(value, str):
            if not value.strip():
                raise ValueError("must not be empty")
            if len(value) > MAX_TOKEN_CHARS:
                raise ValueError(f"at most {MAX_TOKEN_CHARS} characters")
            return value
        if isinstance(value, dict):
            return value
        raise ValueError("a string, or for web a JSON object")


class PushSubscriptionListQuery(PageQuery):
    """GET /push/subscriptions: the caller's own, newest first."""


# --- responses ---------------------------------------------------------------------------------


class PushSubscriptionOut(Wire):
    id: str = Field(description="psh_…")
    platform: Literal["ios", "android", "web"]
    token_hint: str = Field(
        description="The end of the device token (for web, the push service's host and the "
        "end of the endpoint), to tell devices apart; the token itself is never answered."
    )
    created_at: Timestamp
    last_delivered_at: Timestamp | None


class WebPushKeyOut(Wire):
    public_key: str | None = Field(
        description="The VAPID public key for PushManager.subscribe()'s applicationServerKey "
        "(base64url); null when this server does not send Web Push."
    )


class PushDeliveryOut(Wire):
    push_channel: Literal["apns", "fcm", "webpush"]
    status: Literal["pending", "retrying", "delivered", "failed", "unconfigured"]
    at: Timestamp = Field(description="When the status last changed.")


def subscription_json(subscription: PushSubscription) -> dict[str, Any]:
    return PushSubscriptionOut.model_validate(subscription).model_dump(by_alias=True)


def subscriptions_json(rows: Sequence[PushSubscription]) -> list[dict[str, Any]]:
    return [subscription_json(row) for row in rows]


def deliveries_by_notification(
    tenant_id: str, notification_ids: Sequence[str]
) -> dict[str, list[PushDeliveryOut]]:
    """Each of the tenant's notifications' push deliveries, oldest first, in one query; every
    id asked for is a key (an empty list when its person has no device)."""
    found: dict[str, list[PushDeliveryOut]] = {nid: [] for nid in notification_ids}
    if not found:
        return found
    rows = db.session.execute(
        select(
            PushDelivery.notification_id,
            PushDelivery.push_channel,
            PushDelivery.status,
            PushDelivery.at,
        )
        .where(PushDelivery.notification_id.in_(list(found)), in_tenant(PushDelivery, tenant_id))
        .order_by(PushDelivery.notification_id, PushDelivery.id)
    )
    for notification_id, channel, status, at in rows:
        found[notification_id].append(_delivery(channel, status, at))
    return found


def _delivery(channel: str, status: str, at: datetime) -> PushDeliveryOut:
    return PushDeliveryOut(push_channel=channel, status=status, at=at)

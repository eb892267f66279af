"""Request models of the push subscriptions resource. The body's field names are the spec's,
`Platform` and `DeviceToken`, exactly (CONTRACT §4); the checks per platform are
services/push/tokens.py's, the responses services/push/wire.py's."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema, field_validator

from api.pagination import PageQuery
from services.push.tokens import MAX_TOKEN_CHARS

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

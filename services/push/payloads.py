"""What a push says, and what a provider answered. Every payload carries `pushChannel` (CONTRACT
§9) with the notification's id, type, title, body and data; each provider wraps it its own way
(apns.py, fcm.py, webpush.py) within its size limit. Providers answer one of five verdicts."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

import orjson

from models import Notification

# APNs and FCM take 4 KiB; a Web Push record carries a little less once encrypted.
MAX_PAYLOAD_BYTES = 3800


class Verdict(enum.StrEnum):
    DELIVERED = "delivered"
    INVALID_TOKEN = "invalid_token"  # noqa: S105  the device is gone: the subscription is removed
    RETRY = "retry"  # an outage: try again later
    FAILED = "failed"  # refused for good (our request or our credentials)
    UNCONFIGURED = "unconfigured"  # no credentials for this channel


@dataclass(frozen=True)
class Answer:
    verdict: Verdict
    error: str | None = None
    retry_after: float | None = None  # seconds the provider asked us to wait

    @classmethod
    def delivered(cls) -> Answer:
        return cls(Verdict.DELIVERED)


@dataclass(frozen=True)
class Message:
    """A notification as the push job reads it (plain values, outside the session)."""

    id: str
    type: str
    title: str
    body: str
    data: dict[str, Any]

    @classmethod
    def of(cls, notification: Notification) -> Message:
        return cls(
            notification.id,
            notification.type,
            notification.title,
            notification.body or "",
            dict(notification.data or {}),
        )


def fields(message: Message, channel: str, budget: int = MAX_PAYLOAD_BYTES) -> dict[str, Any]:
    """The common fields, cut to fit `budget` bytes of JSON: first the data gives way (the
    app fetches the notification by id), then the body."""
    payload: dict[str, Any] = {
        "pushChannel": channel,
        "notificationId": message.id,
        "type": message.type,
        "title": message.title,
        "body": message.body,
        "data": message.data,
    }
    if _size(payload) <= budget:
        return payload
    payload["data"] = {}
    payload["truncated"] = True
    overflow = _size(payload) - budget
    if overflow > 0:
        payload["body"] = _cut(message.body, len(message.body.encode()) - overflow - 3)
    return payload


def _size(value: Any) -> int:
    return len(orjson.dumps(value))


def _cut(text: str, max_bytes: int) -> str:
    encoded = text.encode()[: max(max_bytes, 0)]
    return encoded.decode(errors="ignore") + "…"


def dumps(value: Any) -> bytes:
    return orjson.dumps(value)

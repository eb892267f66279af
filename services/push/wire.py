"""Push's wire shapes (CONTRACT §9): the subscription as its owner sees it (a hint, never the
token) and a notification's deliveries, which the notifications resource embeds."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal

from pydantic import Field
from sqlalchemy import select

from extensions import db
from models import PushDelivery, PushSubscription
from models.base import in_tenant
from services.core.wire import Timestamp, Wire


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

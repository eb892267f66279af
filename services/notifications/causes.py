"""Why people get notifications, one function per cause: a webhook delivery that failed for
good, an endpoint the system disabled, a deprecated call, an API key due for rotation (the
daily job). Each folds its repeats with a dedupe key, so a cause seen a thousand times a day
is one notification per person and day. Workflows, a layer above, notify their approvers
and admins themselves (services/workflows/instances.py, escalation.py)."""

from __future__ import annotations

from sqlalchemy import select

import clock
from extensions import db
from models import ApiKey, Event, WebhookDelivery, WebhookEndpoint
from models.keys import ROTATION_DUE_AFTER
from services.notifications.notifications import Message, notify_admins

WEBHOOK_DELIVERY_FAILED = "webhook.delivery_failed"
WEBHOOK_ENDPOINT_DISABLED = "webhook.endpoint_disabled"
API_KEY_ROTATION_DUE = "api_key.rotation_due"
DEPRECATION_NOTICE = "api.deprecation_notice"


def _today() -> str:
    return clock.now().date().isoformat()


def _attempts(count: int) -> str:
    return f"{count} attempt{'' if count == 1 else 's'}"


def webhook_delivery_failed(delivery: WebhookDelivery) -> None:
    """The schedule is spent (or the endpoint went away): tell the admins, once per endpoint
    and day however many deliveries fail."""
    endpoint = delivery.endpoint
    message = Message(
        WEBHOOK_DELIVERY_FAILED,
        "Webhook deliveries are failing",
        f"{delivery.event.type} event {delivery.event_id} could not be delivered to "
        f"{endpoint.url} after {_attempts(delivery.attempt_count)}. The delivery log shows "
        "each attempt; retry or replay once the receiver is back.",
        {"webhookId": endpoint.id, "deliveryId": delivery.id, "eventId": delivery.event_id},
    )
    notify_admins(delivery.tenant_id, message, f"webhook-failed:{endpoint.id}:{_today()}")


def webhook_endpoint_disabled(endpoint: WebhookEndpoint, reason: str) -> None:
    message = Message(
        WEBHOOK_ENDPOINT_DISABLED,
        "Webhook endpoint disabled",
        f"Deliveries to {endpoint.url} stopped: {reason} Enable the endpoint again once it "
        "answers, then replay what it missed.",
        {"webhookId": endpoint.id, "reason": reason},
    )
    notify_admins(endpoint.tenant_id, message, f"webhook-disabled:{endpoint.id}:{_today()}")


def deprecation_notice(event: Event) -> None:
    """The tenant used a deprecated endpoint (the notice itself is once per item and day)."""
    data = event.data
    message = Message(
        DEPRECATION_NOTICE,
        f"Deprecated API used: {data.get('endpoint')}",
        f"{data.get('credential', {}).get('name')} called {data.get('endpoint')}, which stops "
        f"working on {data.get('sunset')}. Use {data.get('replacement')} instead "
        f"(migration guide: {data.get('migrationGuide')}).",
        data,
    )
    notify_admins(event.tenant_id, message, f"deprecation:{data.get('item')}:{_today()}")


def remind_key_rotations() -> int:
    """The daily check: admins hear once about each active key older than the rotation
    interval that was never rotated (spec 5.1.8 recommends 90 days). How many were new."""
    due_before = clock.now() - ROTATION_DUE_AFTER
    keys = db.session.scalars(
        select(ApiKey).where(
            ApiKey.revoked_at.is_(None),
            ApiKey.rotated_at.is_(None),
            ApiKey.created_at <= due_before,
        )
    )
    created = 0
    for key in keys:
        message = Message(
            API_KEY_ROTATION_DUE,
            f"API key “{key.name}” is due for rotation",
            f"The key {key.display_secret} was created on {key.created_at.date().isoformat()}. "
            f"Rotate keys every {ROTATION_DUE_AFTER.days} days: rotating gives it a successor "
            "and keeps the old one valid until you revoke it.",
            {"keyId": key.id},
        )
        created += len(notify_admins(key.tenant_id, message, f"key-rotation:{key.id}"))
    return created

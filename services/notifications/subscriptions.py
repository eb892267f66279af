"""How notifications follow other capabilities: webhooks announce failed deliveries and
disabled endpoints, the platform emits deprecation notices; connected by create_app."""

from __future__ import annotations

from models import Event, WebhookDelivery, WebhookEndpoint
from services.core import signals
from services.notifications import causes


def connect() -> None:
    """Subscribe the receivers below (idempotent: blinker keeps one connection each)."""
    signals.webhook_delivery_failed.connect(_delivery_failed)
    signals.webhook_endpoint_disabled.connect(_endpoint_disabled)
    signals.event_emitted.connect(_event_emitted)


def _delivery_failed(delivery: WebhookDelivery, **_) -> None:
    causes.webhook_delivery_failed(delivery)


def _endpoint_disabled(endpoint: WebhookEndpoint, reason: str = "", **_) -> None:
    causes.webhook_endpoint_disabled(endpoint, reason)


def _event_emitted(event: Event, **_) -> None:
    if event.type == causes.DEPRECATION_NOTICE:
        causes.deprecation_notice(event)

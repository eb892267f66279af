"""How push follows notifications: every notification created (services/core/signals.py,
`notification_created`) is fanned out to its person's devices in the creating unit of work;
connected by create_app."""

from __future__ import annotations

from models import Notification
from services.core import signals
from services.push import deliveries


def connect() -> None:
    """Subscribe the receiver below (idempotent: blinker keeps one connection per receiver)."""
    signals.notification_created.connect(_notification_created)


def _notification_created(notification: Notification, **_) -> None:
    deliveries.fan_out(notification)

"""How webhooks follow the outbox: every event emitted (services/core/events.emit) is fanned
out to the endpoints that want it, in the emitting unit of work; connected by create_app."""

from __future__ import annotations

from models import Event
from services.core import signals
from services.webhooks import deliveries


def connect() -> None:
    """Subscribe the receiver below (idempotent: blinker keeps one connection per receiver)."""
    signals.event_emitted.connect(_event_emitted)


def _event_emitted(event: Event, **_) -> None:
    deliveries.fan_out(event)

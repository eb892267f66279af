"""The one way to emit a domain event: a row in the outbox, in the caller's transaction."""

from __future__ import annotations

from extensions import db
from models.event import Event


def emit(tenant_id: str, type_: str, data: dict) -> Event:
    """Record `type_` for delivery. Commits or rolls back with the change that caused it,
    so no event is sent for a change that did not happen and none is lost for one that did."""
    event = Event(tenant_id=tenant_id, type=type_, data=data)
    db.session.add(event)
    db.session.flush()
    return event

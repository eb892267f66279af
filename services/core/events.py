"""The one way to emit a domain event: a row in the outbox, in the caller's transaction,
announced with the `event_emitted` signal (webhooks fan it out to the endpoints that want it)."""

from __future__ import annotations

import clock
from extensions import db
from models.base import new_id
from models.event import Event
from services.core import signals


def emit(tenant_id: str, type_: str, data: dict) -> Event:
    """Record `type_` for delivery. Commits or rolls back with the change that caused it,
    so no event is sent for a change that did not happen and none is lost for one that did."""
    # Its id and time are set here, so the receivers (the webhook fan-out) can use them before
    # the row is written; the row is written with the unit of work's next flush, once and
    # already marked as fanned out (a batch's events in one statement).
    event = Event(
        id=new_id("evt"), created_at=clock.now(), tenant_id=tenant_id, type=type_, data=data
    )
    db.session.add(event)
    signals.event_emitted.send(event)
    return event

"""The notifications' periodic job: once a day, tell the admins about API keys due for
rotation (services/notifications/causes.py)."""

from __future__ import annotations

from datetime import time

from services.core import transaction
from services.core.queue import Periodic
from services.notifications import causes

ROTATION_REMINDERS = Periodic(
    "key-rotation-reminders",
    "jobs.notifications.remind_key_rotations",
    daily_at=time(3, 0),
    timeout=600,
)
PERIODIC = [ROTATION_REMINDERS]


def remind_key_rotations() -> dict[str, int]:
    """RQ job, daily at 03:00 UTC: book tomorrow's run, then remind, in one unit of work."""
    ROTATION_REMINDERS.book()
    return {"rotationReminders": transaction.transactional(causes.remind_key_rotations)()}

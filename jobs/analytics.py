"""The analytics' periodic job: once a day, copy the API's hourly request counters from
Redis, where they live about 8 days, into the database (services/analytics/requests.py)."""

from __future__ import annotations

from datetime import time

from services.analytics import requests
from services.core import transaction
from services.core.queue import Periodic

ROLL_UP = Periodic("analytics-roll-up", "jobs.analytics.roll_up", daily_at=time(3, 0), timeout=600)
PERIODIC = [ROLL_UP]


def roll_up() -> dict[str, int]:
    """RQ job, daily at 03:00 UTC: book tomorrow's run, then roll up, in one unit of work."""
    ROLL_UP.book()
    return {"apiRequestHours": transaction.transactional(requests.roll_up)()}

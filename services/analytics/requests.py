"""API requests over time. The per-minute and per-hour counters of services/limits/usage.py
live in Redis for about 8 days; `roll_up` (run daily by jobs/analytics.py, and by a rebuild)
copies each finished hour of the last 7 days into the database as `kept` counters (no other
record of requests exists), per tenant and per API key. Series read the last 7 days from
Redis, older hours and days from the database."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime, timedelta

from sqlalchemy import func, select

import clock
from extensions import db
from models import AnalyticsCounter, ApiKey, Tenant
from services.analytics import counting
from services.analytics.counting import DAY, HOUR, KEPT, day_of, hour_of
from services.limits import usage

METRIC = "apiRequests"  # dimension: '' for every request, or the API key's id


def _live_from(now: datetime) -> datetime:
    return hour_of(now) - usage.HOURS_KEPT


def _stored(tenant_id: str, dimension: str, granularity: str, start, end) -> dict[datetime, int]:
    rows = db.session.execute(
        select(AnalyticsCounter.bucket, func.sum(AnalyticsCounter.value))
        .where(
            AnalyticsCounter.tenant_id == tenant_id,
            AnalyticsCounter.metric == METRIC,
            AnalyticsCounter.dimension == dimension,
            AnalyticsCounter.granularity == granularity,
            AnalyticsCounter.bucket >= start,
            AnalyticsCounter.bucket < end,
        )
        .group_by(AnalyticsCounter.bucket)
    )
    return {b: int(v or 0) for b, v in rows}


def _hours(tenant_id: str, key_id: str | None, start: datetime, end: datetime, live_from):
    """{hour: requests} for the hours of [start, end): Redis for the live ones."""
    out = (
        _stored(tenant_id, key_id or "", HOUR, start, min(end, live_from))
        if start < live_from
        else {}
    )
    live, at = [], max(start, live_from)
    while at < end:
        live.append(at)
        at += timedelta(hours=1)
    out.update(zip(live, usage.counts_for_hours(tenant_id, key_id, live), strict=True))
    return out


def series(
    tenant_id: str, key_id: str | None, buckets: list[datetime], granularity: str
) -> list[int]:
    """Requests (of one key, or all) in each bucket."""
    if not buckets:
        return []
    live_from = _live_from(clock.now())
    step = timedelta(days=1) if granularity == DAY else timedelta(hours=1)
    start, end = buckets[0], min(buckets[-1] + step, hour_of(clock.now()) + timedelta(hours=1))
    if granularity == HOUR:
        hours = _hours(tenant_id, key_id, start, end, live_from) if start < end else {}
        return [hours.get(b, 0) for b in buckets]
    split = day_of(live_from)  # days from here on are summed from their hours
    days = _stored(tenant_id, key_id or "", DAY, start, min(end, split)) if start < split else {}
    if end > split:
        for hour, n in _hours(tenant_id, key_id, max(start, split), end, live_from).items():
            days[day_of(hour)] = days.get(day_of(hour), 0) + n
    return [days.get(b, 0) for b in buckets]


def roll_up(tenant_id: str | None = None, now: datetime | None = None) -> int:
    """Copy the finished hours of the last 7 days from Redis into the database (replacing
    what an earlier run copied), then recount their days from the stored hours. Returns how
    many hour counters it wrote. The caller commits."""
    now = now or clock.now()
    top = hour_of(now)
    hours = [
        top - timedelta(hours=i) for i in range(int(usage.HOURS_KEPT / timedelta(hours=1)), 0, -1)
    ]
    tenants = [tenant_id] if tenant_id else list(db.session.scalars(select(Tenant.id)))
    written = 0
    for tenant in tenants:
        keys = list(db.session.scalars(select(ApiKey.id).where(ApiKey.tenant_id == tenant)))
        rows: dict = {}
        for key_id in [None, *keys]:
            counts = usage.counts_for_hours(tenant, key_id, hours)
            for hour, n in zip(hours, counts, strict=True):
                if n:
                    rows[(tenant, METRIC, key_id or "", HOUR, hour, KEPT)] = n
        counting.write_counters(rows, replace=True)
        written += len(rows)
        days = defaultdict(int)
        dims = {d for (_, _, d, _, _, _) in rows}
        for dimension in dims:
            first = day_of(hours[0])
            for bucket, n in _stored(tenant, dimension, HOUR, first, top).items():
                days[(tenant, METRIC, dimension, DAY, day_of(bucket), KEPT)] += n
        counting.write_counters(dict(days), replace=True)
    return written

"""Writing the aggregates: counters per hour and per day, and running totals.

Receivers (services/analytics/subscriptions.py) add deltas to the unit of work as the
change happens; they are written just before it commits, in the same transaction, as
`INSERT … ON CONFLICT DO UPDATE SET value = value + excluded.value` (services/core/upserts),
so concurrent writers add up instead of overwriting each other. The rows of one commit are
written in key order, so two transactions touching the same counters lock them in the same
order and never deadlock each other. A rollback drops them with the change."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime

from sqlalchemy import event
from sqlalchemy.orm import Session

from extensions import db
from models import AnalyticsCounter, AnalyticsTotal
from services.core import upserts

HOUR = "hour"
DAY = "day"
RECORDS = "records"  # recomputed by a rebuild from the tables
KEPT = "kept"  # what no record holds any more; a rebuild keeps it

_COUNTERS = "dms.analytics.counters"
_TOTALS = "dms.analytics.totals"

CounterKey = tuple[
    str, str, str, str, datetime, str
]  # tenant, metric, dim, granularity, bucket, origin
TotalKey = tuple[str, str, str]  # tenant, metric, dimension


def hour_of(at: datetime) -> datetime:
    return at.astimezone(UTC).replace(minute=0, second=0, microsecond=0)


def day_of(at: datetime) -> datetime:
    return at.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)


def count(
    tenant_id: str,
    metric: str,
    at: datetime,
    value: int = 1,
    dimension: str = "",
    origin: str = RECORDS,
) -> None:
    """Add `value` to `metric` in the hour and the day of `at` (written at the commit)."""
    if not value:
        return
    pending: Counter = db.session.info.setdefault(_COUNTERS, Counter())
    pending[(tenant_id, metric, dimension, HOUR, hour_of(at), origin)] += value
    pending[(tenant_id, metric, dimension, DAY, day_of(at), origin)] += value


def move_to_kept(
    tenant_id: str, metric: str, at: datetime, value: int, dimension: str = ""
) -> None:
    """The records behind `value` are going away: what a rebuild would recount from them
    becomes what it keeps. The figures read the same."""
    count(tenant_id, metric, at, -value, dimension, RECORDS)
    count(tenant_id, metric, at, value, dimension, KEPT)


def adjust_total(tenant_id: str, metric: str, dimension: str, value: int) -> None:
    if not value:
        return
    pending: Counter = db.session.info.setdefault(_TOTALS, Counter())
    pending[(tenant_id, metric, dimension)] += value


def write_counters(rows: dict[CounterKey, int], *, replace: bool = False) -> None:
    """Upsert counters in key order: added to what is there (or replacing it)."""
    rows = {k: v for k, v in rows.items() if v or replace}
    if not rows:
        return
    table = AnalyticsCounter.__table__
    stmt = upserts.insert(table)
    stmt = stmt.on_conflict_do_update(
        index_elements=[c.name for c in table.primary_key.columns],
        set_={"value": stmt.excluded.value if replace else table.c.value + stmt.excluded.value},
    )
    db.session.execute(
        stmt,
        [
            {
                "tenant_id": t,
                "metric": m,
                "dimension": d,
                "granularity": g,
                "bucket": b,
                "origin": o,
                "value": v,
            }
            for (t, m, d, g, b, o), v in sorted(rows.items())
        ],
    )


def write_totals(rows: dict[TotalKey, int]) -> None:
    rows = {k: v for k, v in rows.items() if v}
    if not rows:
        return
    table = AnalyticsTotal.__table__
    stmt = upserts.insert(table)
    stmt = stmt.on_conflict_do_update(
        index_elements=[c.name for c in table.primary_key.columns],
        set_={"value": table.c.value + stmt.excluded.value},
    )
    db.session.execute(
        stmt,
        [
            {"tenant_id": t, "metric": m, "dimension": d, "value": v}
            for (t, m, d), v in sorted(rows.items())
        ],
    )


def _write_pending(session: Session) -> None:
    counters = session.info.pop(_COUNTERS, None)
    totals = session.info.pop(_TOTALS, None)
    if not (counters or totals):
        return
    write_counters(counters or {})
    write_totals(totals or {})


def _forget_pending(session: Session) -> None:
    session.info.pop(_COUNTERS, None)
    session.info.pop(_TOTALS, None)


def connect() -> None:
    """Write pending deltas just before each commit; forget them on a rollback."""
    if not event.contains(Session, "before_commit", _write_pending):
        event.listen(Session, "before_commit", _write_pending)
        event.listen(Session, "after_rollback", _forget_pending)

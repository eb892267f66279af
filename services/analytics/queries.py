"""Reading the aggregates: the summary and the usage series (CONTRACT §9), for the API and
the portal's dashboard alike. Every read is bounded by the range asked for (or the last 30
days), never by how many documents the tenant has."""

from __future__ import annotations

import statistics
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select

import clock
from errors import invalid_parameter
from extensions import db
from models import AnalyticsCounter, AnalyticsTotal, DocumentStatus, InstanceState
from models.workflows import WorkflowInstance
from services.analytics import requests
from services.analytics.counting import DAY, HOUR, day_of, hour_of
from services.analytics.subscriptions import (
    BY_CONTENT_TYPE,
    BY_STATUS,
    CYCLE_SECONDS,
    DECIDED,
    DELIVERIES,
    DOCUMENTS,
    STORAGE,
    UPLOADS,
    WORKFLOW_STATES,
    WORKFLOWS_FINISHED,
)
from services.limits import usage

WINDOW_DAYS = 30  # the summary's rates and medians: today and the 29 days before
MAX_SPAN = {DAY: timedelta(days=400), HOUR: timedelta(days=30)}
STEP = {DAY: timedelta(days=1), HOUR: timedelta(hours=1)}
DEFAULT_SPAN = {DAY: timedelta(days=30), HOUR: timedelta(hours=24)}
EARLIEST, LATEST = datetime(1970, 1, 1, tzinfo=UTC), datetime(9000, 1, 1, tzinfo=UTC)

# metric -> how its points are made: "flow" (what happened in the period), "gauge" (how it
# stood at the end of the period), or a ratio of two flows.
METRICS = {
    "apiRequests": "flow",
    "uploads": "flow",
    "storageBytes": "gauge",
    "documents": "gauge",
    "webhookDeliveries": "flow",
    "webhookDeliveriesFailed": "flow",
    "workflowsFinished": "flow",
    "workflowCycleHours": "mean",
}
_STORED = {"uploads": UPLOADS, "storageBytes": STORAGE, "documents": DOCUMENTS}


@dataclass(frozen=True)
class Range:
    start: datetime  # the first bucket's start (aligned)
    end: datetime  # exclusive
    granularity: str

    def buckets(self) -> list[datetime]:
        step, at, out = STEP[self.granularity], self.start, []
        while at < self.end:
            out.append(at)
            at += step
        return out


def usage_range(start: datetime | None, end: datetime | None, granularity: str) -> Range:
    """The buckets of [start, end): start rounds down to its hour or day; end defaults to now,
    start to 30 days (24 hours) before the end. 400 INVALID_PARAMETER for a range that is
    empty, reversed or longer than 400 days of days or 30 days of hours."""
    end = end or clock.now()
    start = start or end - DEFAULT_SPAN[granularity]
    for name, at in (("to", end), ("from", start)):
        if not EARLIEST <= at <= LATEST:
            raise invalid_parameter(f"'{name}' must be between 1970 and 9000.", name)
    if start >= end:
        raise invalid_parameter("'from' must be earlier than 'to'.", "from")
    aligned = hour_of(start) if granularity == HOUR else day_of(start)
    if end - aligned > MAX_SPAN[granularity]:
        limit = "400 days" if granularity == DAY else "30 days"
        raise invalid_parameter(
            f"At most {limit} with granularity={granularity}; narrow 'from' and 'to'.", "to"
        )
    return Range(aligned, end, granularity)


def _sums(
    tenant_id: str, metric: str, rng: Range, dimension: str | None = ""
) -> dict[tuple[datetime, str], int]:
    """{(bucket, dimension): value} over both origins, for the range's buckets."""
    stmt = (
        select(
            AnalyticsCounter.bucket, AnalyticsCounter.dimension, func.sum(AnalyticsCounter.value)
        )
        .where(
            AnalyticsCounter.tenant_id == tenant_id,
            AnalyticsCounter.metric == metric,
            AnalyticsCounter.granularity == rng.granularity,
            AnalyticsCounter.bucket >= rng.start,
            AnalyticsCounter.bucket < rng.end,
        )
        .group_by(AnalyticsCounter.bucket, AnalyticsCounter.dimension)
    )
    if dimension is not None:
        stmt = stmt.where(AnalyticsCounter.dimension == dimension)
    return {(b, d): int(v or 0) for b, d, v in db.session.execute(stmt)}


def _before(tenant_id: str, metric: str, granularity: str, before: datetime, since=None) -> int:
    stmt = select(func.coalesce(func.sum(AnalyticsCounter.value), 0)).where(
        AnalyticsCounter.tenant_id == tenant_id,
        AnalyticsCounter.metric == metric,
        AnalyticsCounter.dimension == "",
        AnalyticsCounter.granularity == granularity,
        AnalyticsCounter.bucket < before,
    )
    if since is not None:
        stmt = stmt.where(AnalyticsCounter.bucket >= since)
    return int(db.session.scalar(stmt) or 0)


def _flow(tenant_id: str, metric: str, rng: Range, dimension: str = "") -> list[int]:
    sums = _sums(tenant_id, metric, rng, dimension)
    return [sums.get((b, dimension), 0) for b in rng.buckets()]


def _gauge(tenant_id: str, metric: str, rng: Range) -> list[int]:
    """How the figure stood at the end of each bucket: what came before, then running sums."""
    level = _before(tenant_id, metric, DAY, day_of(rng.start))
    if rng.granularity == HOUR:
        level += _before(tenant_id, metric, HOUR, rng.start, since=day_of(rng.start))
    out = []
    for delta in _flow(tenant_id, metric, rng):
        level += delta
        out.append(level)
    return out


def _by_dimension(tenant_id: str, metric: str, rng: Range) -> dict[str, list[int]]:
    sums = _sums(tenant_id, metric, rng, None)
    out: dict[str, list[int]] = {}
    for dimension in sorted({d for _, d in sums}):
        out[dimension] = [sums.get((b, dimension), 0) for b in rng.buckets()]
    return out


def series(tenant_id: str, metric: str, rng: Range, key_id: str | None = None) -> list[int]:
    """One value per bucket of `rng` (zeros where nothing happened)."""
    kind = METRICS[metric]
    if metric == "apiRequests":
        return requests.series(tenant_id, key_id, rng.buckets(), rng.granularity)
    if kind == "gauge":
        return _gauge(tenant_id, _STORED[metric], rng)
    if metric == "uploads":
        return _flow(tenant_id, UPLOADS, rng)
    if metric.startswith("webhookDeliveries"):
        by_status = _by_dimension(tenant_id, DELIVERIES, rng)
        zeros = [0] * len(rng.buckets())
        failed = by_status.get("failed", zeros)
        if metric == "webhookDeliveriesFailed":
            return failed
        return [f + s for f, s in zip(failed, by_status.get("succeeded", zeros), strict=True)]
    finished = _by_dimension(tenant_id, WORKFLOWS_FINISHED, rng)
    zeros = [0] * len(rng.buckets())
    if metric == "workflowsFinished":
        return [sum(v) for v in zip(zeros, *finished.values(), strict=True)]
    decided = [sum(v) for v in zip(zeros, *(finished.get(s, zeros) for s in DECIDED), strict=True)]
    seconds = _flow(tenant_id, CYCLE_SECONDS, rng)
    return [round(s / n / 3600, 2) if n else 0 for s, n in zip(seconds, decided, strict=True)]


def api_requests_by_key(tenant_id: str, key_ids: list[str], rng: Range) -> dict[str, list[int]]:
    return {k: requests.series(tenant_id, k, rng.buckets(), rng.granularity) for k in key_ids}


# --- the summary -------------------------------------------------------------------------------


def summary(tenant_id: str) -> dict:
    totals: dict[str, dict[str, int]] = defaultdict(dict)
    for metric, dimension, value in db.session.execute(
        select(AnalyticsTotal.metric, AnalyticsTotal.dimension, AnalyticsTotal.value).where(
            AnalyticsTotal.tenant_id == tenant_id
        )
    ):
        totals[metric][dimension] = int(value)
    by_status = {s.value: totals[BY_STATUS].get(s.value, 0) for s in DocumentStatus}
    by_type = {t: n for t, n in sorted(totals[BY_CONTENT_TYPE].items()) if n > 0}
    states = {s.value: totals[WORKFLOW_STATES].get(s.value, 0) for s in InstanceState}
    since = day_of(clock.now()) - timedelta(days=WINDOW_DAYS - 1)
    deliveries = _delivery_window(tenant_id, since)
    sent = deliveries.get("succeeded", 0) + deliveries.get("failed", 0)
    return {
        "documents": {
            "total": sum(by_status.values()),
            "by_status": by_status,
            "by_content_type": by_type,
        },
        "storage_bytes": totals[STORAGE].get("", 0),
        "workflows": {
            "by_state": states,
            "median_cycle_hours": median_cycle_hours(tenant_id, since),
        },
        "webhooks": {
            "deliveries": sent,
            "success_rate": round(deliveries.get("succeeded", 0) / sent, 4) if sent else None,
        },
        "api_requests": {
            "last_hour": usage.last_hour(tenant_id),
            "last24_hours": sum(n for _, n in usage.hourly_counts(tenant_id, None, 24)),
        },
    }


def _delivery_window(tenant_id: str, since: datetime) -> dict[str, int]:
    rows = db.session.execute(
        select(AnalyticsCounter.dimension, func.sum(AnalyticsCounter.value))
        .where(
            AnalyticsCounter.tenant_id == tenant_id,
            AnalyticsCounter.metric == DELIVERIES,
            AnalyticsCounter.granularity == DAY,
            AnalyticsCounter.bucket >= since,
        )
        .group_by(AnalyticsCounter.dimension)
    )
    return {d: int(v or 0) for d, v in rows}


def median_cycle_hours(tenant_id: str, since: datetime) -> float | None:
    """The median time from start to approval or rejection of the instances decided since
    `since` (the index on tenant and completion time bounds it to the window)."""
    rows = db.session.execute(
        select(WorkflowInstance.created_at, WorkflowInstance.completed_at).where(
            WorkflowInstance.tenant_id == tenant_id,
            WorkflowInstance.completed_at >= since,
            WorkflowInstance.state.in_(DECIDED),
        )
    )
    hours = [(done - started).total_seconds() / 3600 for started, done in rows]
    return round(statistics.median(hours), 2) if hours else None

"""Analytics resource (CONTRACT §9): the summary and usage over time, read from the
aggregates services/analytics keeps (never by counting documents). Routes only."""

from __future__ import annotations

from api.auth import require_scope
from api.blueprint import bp
from api.envelope import ok, ok_list
from api.validation import query_args, responds
from errors import invalid_parameter
from models import ApiKey
from services.analytics import queries, wire
from services.analytics.wire import AnalyticsSummaryOut, UsagePointOut, UsageQuery
from tenancy import current_tenant


@bp.get("/analytics/summary")
@require_scope("analytics:read")
@responds(AnalyticsSummaryOut)
def get_analytics_summary():
    """Documents by status and type, storage, workflows, webhook deliveries and API requests,
    as they stand now (rates and medians over the last 30 days)."""
    return ok(wire.summary_data(queries.summary(current_tenant.id)))


@bp.get("/analytics/usage")
@require_scope("analytics:read")
@query_args(UsageQuery)
@responds(UsagePointOut, many=True)
def get_analytics_usage(query: UsageQuery):
    """One point per hour or day of [from, to), UTC; periods with nothing are 0. Gauges
    (storageBytes, documents) give the level at the end of each period."""
    rng = queries.usage_range(query.from_, query.to, query.granularity)
    if query.key_id is not None:
        if query.metric != "apiRequests":
            raise invalid_parameter("keyId applies to metric=apiRequests only.", "keyId")
        ApiKey.get_for_tenant(query.key_id, current_tenant.id)  # another tenant's: 404
    values = queries.series(current_tenant.id, query.metric, rng, query.key_id)
    points = wire.points_data(rng.buckets(), values)
    meta = {"metric": query.metric, "granularity": query.granularity}
    return ok_list(points, limit=len(points), next_cursor=None, extra_meta=meta)

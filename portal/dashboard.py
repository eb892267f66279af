"""The dashboard: plan, this hour's use against the quota (tenant and per key, drawn as SVG),
active keys, keys due for rotation and the latest audit entries."""

from __future__ import annotations

from flask import redirect, render_template, url_for
from flask_login import current_user

from portal.access import TENANT_ROLES, portal_tenant, roles_required
from portal.blueprint import bp
from portal.charts import bar_chart, byte_size, duration_hours, line_chart, meter
from portal.copilot import usage_block
from services.analytics import queries as analytics
from services.analytics import wire as analytics_wire
from services.audit import audit_queries
from services.keys import api_keys
from services.limits import rate_limits, usage


@bp.get("/")
def index():
    if not current_user.is_authenticated:
        return redirect(url_for("portal.login"))
    if current_user.is_support:
        return redirect(url_for("portal.support_tenants"))
    return dashboard()


@roles_required(*TENANT_ROLES)
def dashboard():
    tenant = portal_tenant()
    if current_user.role == "member":
        return render_template("portal/dashboard/member.html", tenant=tenant)
    hourly_quota, burst = tenant.limits
    keys = api_keys.list_keys(tenant.id)
    active = [key for key in keys if key.is_active]
    per_key = [
        {"key": key, "meter": _quota_meter(tenant, key), "own_quota": key.hourly_quota is not None}
        for key in active
    ]
    per_key.sort(key=lambda row: row["meter"].value, reverse=True)
    minutes = usage.minute_counts(tenant.id)
    return render_template(
        "portal/dashboard/index.html",
        tenant=tenant,
        hourly_quota=hourly_quota,
        burst=burst,
        usage_meter=_quota_meter(tenant),
        minute_chart=bar_chart(minutes, guide=burst, guide_label=f"burst limit {burst}/min"),
        per_key=per_key,
        active_count=len(active),
        due=[key for key in active if key.rotation_due],
        latest=audit_queries.latest(tenant.id),
        copilot=usage_block(tenant),
        analytics=_analytics(tenant, active),
    )


def _quota_meter(tenant, key=None):
    """Use of the sliding hour against the quota, read from the rate limiter's own windows
    (the numbers a 429 is decided on). The usage counters (per minute) stand in for keys
    without a quota of their own, which have no window, and when Redis cannot say."""
    window = rate_limits.last_hour_usage(tenant, key)
    used = window["used"]
    if used is None:
        used = usage.last_hour(tenant.id, key.id if key else None)
    return meter(used, window["quota"])


ANALYTICS_DAYS = 30
TOP_KEYS = 5


def _analytics(tenant, keys) -> dict:
    """The analytics charts: the last 30 days by day, from the same service functions as
    GET /api/v1/analytics/summary and /usage."""
    rng = analytics.usage_range(None, None, "day")
    days = rng.buckets()

    def series(metric: str, key_id: str | None = None) -> list:
        return analytics.series(tenant.id, metric, rng, key_id)

    by_key = analytics.api_requests_by_key(tenant.id, [k.id for k in keys], rng)
    names = {k.id: k.name for k in keys}
    busiest = sorted(by_key, key=lambda k: sum(by_key[k]), reverse=True)[:TOP_KEYS]
    requests = {"All requests": series("apiRequests")}
    requests.update({names[k]: by_key[k] for k in busiest if sum(by_key[k])})
    sent, failed = series("webhookDeliveries"), series("webhookDeliveriesFailed")
    success = [
        round(100 * (s - f) / s, 1) if s else None for s, f in zip(sent, failed, strict=True)
    ]

    def percent(value):
        return "no deliveries" if value is None else f"{value:.1f} %"

    # A day nobody finished a workflow has no cycle time: a gap, not "0.00 h".
    finished = series("workflowsFinished")
    cycle = [
        value if done else None
        for value, done in zip(series("workflowCycleHours"), finished, strict=True)
    ]

    def hours(value):
        return "none decided" if value is None else duration_hours(value)

    return {
        "summary": analytics_wire.summary_data(analytics.summary(tenant.id)),
        "storage_label": byte_size,
        "duration": duration_hours,
        "documents": line_chart(days, {"Documents": series("documents")}),
        "storage": line_chart(days, {"Storage": series("storageBytes")}, fmt=byte_size),
        "uploads": line_chart(days, {"Uploads": series("uploads")}),
        "requests": line_chart(days, requests),
        "cycle": line_chart(days, {"Mean cycle hours": cycle}, fmt=hours),
        "webhooks": line_chart(days, {"Success rate": success}, fmt=percent),
    }

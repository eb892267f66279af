"""The dashboard: plan, this hour's use against the quota (tenant and per key, drawn as SVG),
active keys, keys due for rotation and the latest audit entries."""

from __future__ import annotations

from flask import redirect, render_template, url_for
from flask_login import current_user

from portal.access import TENANT_ROLES, portal_tenant, roles_required
from portal.blueprint import bp
from portal.charts import bar_chart, meter
from portal.copilot import usage_block
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

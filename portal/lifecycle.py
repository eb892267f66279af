"""Deprecation notices page: what this tenant still calls that is deprecated, by which key,
how often and how long it has left, with the replacement and migration guide; plus the API
changelog (spec 9)."""

from __future__ import annotations

from flask import render_template

import clock
from portal.access import READERS, portal_tenant, roles_required
from portal.blueprint import bp
from services.lifecycle import deprecations


@bp.get("/deprecations")
@roles_required(*READERS)
def deprecation_notices():
    tenant = portal_tenant()
    now = clock.now()
    rows = deprecations.usage_for_tenant(tenant.id)
    in_use = {row.item.id for row in rows}
    return render_template(
        "portal/lifecycle/index.html",
        tenant=tenant,
        rows=rows,
        now=now,
        registry=sorted(deprecations.REGISTRY, key=lambda d: d.sunset),
        in_use=in_use,
        changelog=deprecations.CHANGELOG,
    )

"""The audit log pages: filtered, cursor-paginated reading, a streamed CSV export of the filtered
set and the hash-chain check, for tenant readers and (read-only, itself audited) for support."""

from __future__ import annotations

from flask import Response, flash, render_template, request, stream_with_context, url_for
from flask_login import current_user

import clock
from errors import DomainError
from portal.access import READERS, SUPPORT, portal_actor, portal_tenant, roles_required
from portal.blueprint import bp
from services.accounts import tenants
from services.audit import audit_queries
from services.audit.audit_log import record_support_view
from services.core import transaction
from services.core.cursors import binding_of, decode_cursor, encode_cursor


def _read(tenant_id: str, endpoint: str, **route_args):
    """One page of the log for `tenant_id` under the request's filters."""
    flt, errors = audit_queries.parse_filter(request.args)
    binding = binding_of(tenant_id, resource="portal-audit", **flt.as_params())
    before = None
    cursor = request.args.get("cursor")
    if cursor:
        try:
            position = decode_cursor(cursor, binding)
            before = int(position[0])
        except (DomainError, ValueError, IndexError):
            flash("That page link has expired or no longer matches; showing the newest.", "info")
    entries, next_seq = audit_queries.page(tenant_id, flt, before)
    next_url = None
    if next_seq is not None:
        next_url = url_for(
            endpoint,
            **route_args,
            **flt.as_params(),
            cursor=encode_cursor(binding, [next_seq]),
        )
    return {
        "filter": flt,
        "filter_errors": errors,
        "entries": entries,
        "next_url": next_url,
        "first_url": url_for(endpoint, **route_args, **flt.as_params()) if before else None,
        "actions": audit_queries.known_actions(tenant_id),
        "chain": audit_queries.chain_status(tenant_id),
    }


@bp.get("/audit")
@roles_required(*READERS)
def audit_log():
    tenant = portal_tenant()
    page = _read(tenant.id, "portal.audit_log")
    return render_template(
        "portal/audit/index.html",
        tenant=tenant,
        export_url=url_for("portal.audit_export", **page["filter"].as_params()),
        reset_url=url_for("portal.audit_log"),
        **page,
    )


@bp.get("/audit/export.csv")
@roles_required(*READERS)
def audit_export():
    tenant = portal_tenant()
    flt, _ = audit_queries.parse_filter(request.args)
    filename = f"audit-{tenant.id}-{clock.now():%Y%m%dT%H%M%SZ}.csv"
    return Response(
        stream_with_context(audit_queries.csv_rows(tenant.id, flt)),
        mimetype="text/csv",
        headers={
            "Content-Disposition": f'attachment; filename="{filename}"',
            "Cache-Control": "no-store",
        },
    )


@bp.get("/support")
@roles_required(*SUPPORT)
def support_tenants():
    return render_template("portal/accounts/support_tenants.html", tenants=tenants.list_tenants())


@bp.get("/support/tenants/<slug>/audit")
@roles_required(*SUPPORT)
def support_audit(slug: str):
    tenant = tenants.require_tenant(slug)
    flt, _ = audit_queries.parse_filter(request.args)
    # Recorded before reading, in a unit of work of its own, so the reader sees their own visit
    # at the top of the log and the record stands whatever the page does.
    transaction.transactional(record_support_view)(tenant.id, portal_actor(), flt.as_params())
    page = _read(tenant.id, "portal.support_audit", slug=slug)
    return render_template(
        "portal/audit/index.html",
        tenant=tenant,
        support_view=True,
        staff=current_user,
        export_url=None,
        reset_url=url_for("portal.support_audit", slug=slug),
        **page,
    )

"""API Keys pages (spec 5.1): list with traffic, create, rotate (the three steps), revoke,
allowlist and quota edits, and each key's history. Every form works as a plain POST;
htmx only swaps the revoked row in place."""

from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for

from errors import DomainError
from extensions import db
from models import SCOPES, ApiKey
from portal.access import ADMIN, READERS, is_htmx, portal_actor, portal_tenant, roles_required
from portal.blueprint import bp
from portal.charts import bar_chart, sparkline
from portal.layout import NO_STORE, field_errors
from services.audit import audit_queries
from services.core.transaction import transactional
from services.keys import api_keys
from services.limits import usage


def _key_row(key: ApiKey) -> dict:
    hours = usage.hourly_counts(key.tenant_id, key.id)
    return {"key": key, "spark": sparkline(hours), "requests_24h": sum(c for _, c in hours)}


def _load(key_id: str) -> ApiKey:
    return ApiKey.get_for_tenant(key_id, portal_tenant().id)


def _parse_quota(raw: str | None) -> tuple[int | None, str | None]:
    raw = (raw or "").strip()
    if not raw:
        return None, None
    # ASCII digits only ("²" is a digit to str.isdigit), and short: int() refuses 4,300 digits.
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 12):
        return None, "Hourly quota must be a whole number of requests, or empty."
    return int(raw), None


@bp.get("/keys")
@roles_required(*READERS)
def keys():
    tenant = portal_tenant()
    rows = [_key_row(key) for key in api_keys.list_keys(tenant.id)]
    return render_template("portal/keys/index.html", tenant=tenant, rows=rows)


@bp.get("/keys/new")
@roles_required(*ADMIN)
def new_key():
    form = {"name": "", "scopes": [], "allowed_ips": "", "hourly_quota": ""}
    return render_template("portal/keys/new.html", form=form, errors={}, scopes=SCOPES)


@bp.post("/keys")
@roles_required(*ADMIN)
@transactional
def create_key():
    form = {
        "name": request.form.get("name", ""),
        "scopes": request.form.getlist("scopes"),
        "allowed_ips": request.form.get("allowed_ips", ""),
        "hourly_quota": request.form.get("hourly_quota", ""),
    }
    quota, quota_error = _parse_quota(form["hourly_quota"])
    errors: dict[str, list[str]] = {"hourlyQuota": [quota_error]} if quota_error else {}
    try:
        # The service checks every other field at once; a quota that did not parse is
        # reported beside them, and the rollback below undoes the key either way.
        key, secret = api_keys.create_key(
            portal_tenant(),
            form["name"],
            form["scopes"],
            portal_actor(),
            allowed_ips=form["allowed_ips"],
            hourly_quota=quota,
        )
    except DomainError as error:
        errors = field_errors(error) | errors
    if errors:
        db.session.rollback()
        return render_template("portal/keys/new.html", form=form, errors=errors, scopes=SCOPES), 422
    return render_template("portal/keys/secret.html", key=key, secret=secret), 201, NO_STORE


@bp.get("/keys/<key_id>")
@roles_required(*READERS)
def key_detail(key_id: str):
    key = _load(key_id)
    return _render_detail(key, form=None, errors={})


def _render_detail(key: ApiKey, form: dict | None, errors: dict, status: int = 200):
    hours = usage.hourly_counts(key.tenant_id, key.id)
    form = form or {
        "allowed_ips": "\n".join(key.allowed_ips),
        "hourly_quota": "" if key.hourly_quota is None else str(key.hourly_quota),
    }
    return render_template(
        "portal/keys/detail.html",
        key=key,
        tenant=portal_tenant(),
        chart=bar_chart(hours, width=720, height=150, time_format="%d %H:00"),
        last_hour=usage.last_hour(key.tenant_id, key.id),
        history=audit_queries.key_history(key.tenant_id, key.id),
        form=form,
        errors=errors,
        scopes=SCOPES,
    ), status


@bp.post("/keys/<key_id>/settings")
@roles_required(*ADMIN)
@transactional
def update_key(key_id: str):
    key = _load(key_id)
    form = {
        "allowed_ips": request.form.get("allowed_ips", ""),
        "hourly_quota": request.form.get("hourly_quota", ""),
    }
    quota, quota_error = _parse_quota(form["hourly_quota"])
    if quota_error:
        return _render_detail(key, form, {"hourlyQuota": [quota_error]}, 422)
    try:
        api_keys.update_key(
            key, portal_actor(), allowed_ips=form["allowed_ips"], hourly_quota=quota
        )
    except DomainError as error:
        db.session.rollback()
        return _render_detail(_load(key_id), form, field_errors(error), error.status)
    flash(f"Saved the allowlist and quota of “{key.name}”.", "success")
    return redirect(url_for("portal.key_detail", key_id=key.id))


@bp.get("/keys/<key_id>/rotate")
@roles_required(*ADMIN)
def confirm_rotate(key_id: str):
    return render_template("portal/keys/rotate_confirm.html", key=_load(key_id))


@bp.post("/keys/<key_id>/rotate")
@roles_required(*ADMIN)
@transactional
def rotate_key(key_id: str):
    key = _load(key_id)
    try:
        successor, secret = api_keys.rotate_key(key, portal_actor())
    except DomainError as error:
        db.session.rollback()
        flash(error.message, "error")
        return redirect(url_for("portal.key_detail", key_id=key_id))
    return (
        render_template("portal/keys/rotated.html", key=key, successor=successor, secret=secret),
        201,
        NO_STORE,
    )


@bp.get("/keys/<key_id>/revoke")
@roles_required(*ADMIN)
def confirm_revoke(key_id: str):
    key = _load(key_id)
    return render_template("portal/keys/revoke_confirm.html", row=_key_row(key))


@bp.post("/keys/<key_id>/revoke")
@roles_required(*ADMIN)
@transactional
def revoke_key(key_id: str):
    key = _load(key_id)
    try:
        api_keys.revoke_key(key, portal_actor())
    except DomainError as error:
        db.session.rollback()
        if is_htmx():
            return render_template("portal/keys/_row.html", row=_key_row(_load(key_id)))
        flash(error.message, "error")
        return redirect(url_for("portal.keys"))
    if is_htmx():
        return render_template("portal/keys/_row.html", row=_key_row(key), just_revoked=True)
    flash(f"Revoked “{key.name}”. Calls with it now answer 401.", "success")
    return redirect(url_for("portal.keys"))

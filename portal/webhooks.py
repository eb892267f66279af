"""Webhooks pages: endpoints with their health, create (the secret shown once),
enable/disable, delete, rotate the secret, a test event, the event catalogue, and the
delivery log with every attempt on a timeline and a retry button. Every form works as a plain
POST; htmx sends the test event, retries a delivery and removes a deleted row in place."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from flask import current_app, flash, redirect, render_template, request, url_for

import clock
from errors import DomainError
from extensions import db
from models import WebhookDelivery, WebhookEndpoint
from models.webhooks import OPEN_STATUSES
from portal.access import ADMIN, READERS, is_htmx, portal_actor, portal_tenant, roles_required
from portal.blueprint import bp
from portal.charts import timeline
from portal.layout import NO_STORE, field_errors
from services.core.transaction import transactional
from services.webhooks import deliveries, endpoints, overview, replay, wire
from services.webhooks.catalogue import CATALOGUE, DIRECT_ONLY, WILDCARD

PAGE_SIZE = 25
MAX_POLLS = 15  # an htmx result polls every 2 s while its attempt is due, at most this often


def _catalogue() -> list[dict]:
    return [
        {**item, "sample_json": json.dumps(item["sample"], indent=2)}
        for item in wire.event_types_data()
    ]


SUBSCRIBABLE = [t for t in CATALOGUE if t.name not in DIRECT_ONLY]


def _load(endpoint_id: str) -> WebhookEndpoint:
    return endpoints.get_endpoint(portal_tenant().id, endpoint_id)


def _load_delivery(endpoint_id: str, delivery_id: str) -> WebhookDelivery:
    return deliveries.get_delivery(_load(endpoint_id), delivery_id)


def _render_index(form: dict, errors: dict, status: int = 200):
    tenant = portal_tenant()
    rows = overview.all_endpoints(tenant.id)
    health = overview.health_of(tenant.id, [e.id for e in rows])
    return render_template(
        "portal/webhooks/index.html",
        tenant=tenant,
        rows=[{"endpoint": e, "health": health[e.id]} for e in rows],
        form=form,
        errors=errors,
        event_types=SUBSCRIBABLE,
        catalogue=_catalogue(),
        window_days=overview.HEALTH_WINDOW.days,
        wildcard=WILDCARD,
        allow_http=current_app.config["DMS_WEBHOOK_ALLOW_HTTP"],
        allow_private=current_app.config["DMS_WEBHOOK_ALLOW_PRIVATE"],
    ), status


@bp.get("/webhooks")
@roles_required(*READERS)
def webhooks():
    return _render_index({"url": "", "events": [], "description": ""}, {})


@bp.post("/webhooks")
@roles_required(*ADMIN)
@transactional
def create_webhook():
    form = {
        "url": request.form.get("url", "").strip(),
        "events": request.form.getlist("events"),
        "description": request.form.get("description", "").strip(),
    }
    try:
        endpoint, secret = endpoints.create_endpoint(
            portal_tenant().id,
            form["url"],
            form["events"],
            portal_actor(),
            description=form["description"][:500] or None,
        )
    except DomainError as error:
        db.session.rollback()
        return _render_index(form, field_errors(error), 422)
    return (
        render_template("portal/webhooks/secret.html", endpoint=endpoint, secret=secret),
        201,
        NO_STORE,
    )


def _delivery_view(delivery: WebhookDelivery, poll: int | None = None) -> dict:
    points = []
    attempts = []
    for attempt in delivery.attempts:
        ok = overview.attempt_succeeded(attempt)
        outcome = attempt.error or f"HTTP {attempt.status_code}"
        points.append((attempt.at, "ok" if ok else "fail", f"attempt {attempt.number}, {outcome}"))
        attempts.append({"attempt": attempt, "ok": ok})
    is_open = delivery.status in OPEN_STATUSES
    if is_open and delivery.next_attempt_at is not None:
        points.append((delivery.next_attempt_at, "next", "next attempt"))
    due = is_open and (delivery.next_attempt_at is None or delivery.next_attempt_at <= clock.now())
    return {
        "delivery": delivery,
        "attempts": attempts,
        "timeline": timeline(delivery.created_at, points),
        "is_open": is_open,
        "can_retry": delivery.status != "succeeded" and delivery.endpoint.enabled,
        "poll": poll if poll is not None and due and poll < MAX_POLLS else None,
    }


@bp.get("/webhooks/<endpoint_id>")
@roles_required(*READERS)
def webhook_detail(endpoint_id: str):
    endpoint = _load(endpoint_id)
    before = request.args.get("before") or None
    status = request.args.get("status") or None
    rows, more = deliveries.list_deliveries(
        endpoint, PAGE_SIZE, [before] if before else None, status
    )
    return render_template(
        "portal/webhooks/detail.html",
        endpoint=endpoint,
        health=overview.health_of(endpoint.tenant_id, [endpoint.id])[endpoint.id],
        window_days=overview.HEALTH_WINDOW.days,
        deliveries=[_delivery_view(d) for d in rows],
        next_before=rows[-1].id if more and rows else None,
        status=status,
        overlap_hours=int(endpoints.ROTATION_OVERLAP.total_seconds() // 3600),
        now=clock.now(),
    )


@bp.post("/webhooks/<endpoint_id>/enabled")
@roles_required(*ADMIN)
@transactional
def set_webhook_enabled(endpoint_id: str):
    endpoint = _load(endpoint_id)
    enabled = request.form.get("enabled") == "1"
    endpoints.update_endpoint(endpoint, {"enabled": enabled}, portal_actor())
    flash(f"{'Enabled' if enabled else 'Disabled'} {endpoint.url}.", "success")
    if request.form.get("back") == "list":
        return redirect(url_for("portal.webhooks"))
    return redirect(url_for("portal.webhook_detail", endpoint_id=endpoint.id))


@bp.get("/webhooks/<endpoint_id>/delete")
@roles_required(*ADMIN)
def confirm_delete_webhook(endpoint_id: str):
    return render_template("portal/webhooks/delete_confirm.html", endpoint=_load(endpoint_id))


@bp.post("/webhooks/<endpoint_id>/delete")
@roles_required(*ADMIN)
@transactional
def delete_webhook(endpoint_id: str):
    endpoint = _load(endpoint_id)
    url = endpoint.url
    endpoints.delete_endpoint(endpoint, portal_actor())
    if is_htmx():
        return ""  # the row's outerHTML: gone
    flash(f"Deleted the endpoint {url} and its delivery log.", "success")
    return redirect(url_for("portal.webhooks"))


@bp.get("/webhooks/<endpoint_id>/rotate")
@roles_required(*ADMIN)
def confirm_rotate_webhook(endpoint_id: str):
    return render_template(
        "portal/webhooks/rotate_confirm.html",
        endpoint=_load(endpoint_id),
        overlap_hours=int(endpoints.ROTATION_OVERLAP.total_seconds() // 3600),
    )


@bp.post("/webhooks/<endpoint_id>/rotate")
@roles_required(*ADMIN)
@transactional
def rotate_webhook_secret(endpoint_id: str):
    endpoint = _load(endpoint_id)
    secret = endpoints.rotate_secret(endpoint, portal_actor())
    return (
        render_template(
            "portal/webhooks/secret.html", endpoint=endpoint, secret=secret, rotated=True
        ),
        201,
        NO_STORE,
    )


@bp.post("/webhooks/<endpoint_id>/test")
@roles_required(*ADMIN)
@transactional
def test_webhook(endpoint_id: str):
    endpoint = _load(endpoint_id)
    try:
        delivery = deliveries.send_test(endpoint, portal_actor())
    except DomainError as error:
        db.session.rollback()
        if is_htmx():
            return render_template("portal/webhooks/_message.html", message=error.message)
        flash(error.message, "error")
        return redirect(url_for("portal.webhook_detail", endpoint_id=endpoint_id))
    if is_htmx():
        return render_template(
            "portal/webhooks/_delivery.html",
            row=_delivery_view(delivery, poll=0),
            endpoint=endpoint,
        )
    flash(f"Sent a test event (delivery {delivery.id}); its attempt appears below.", "success")
    return redirect(url_for("portal.webhook_detail", endpoint_id=endpoint.id))


@bp.get("/webhooks/<endpoint_id>/deliveries/<delivery_id>")
@roles_required(*READERS)
def webhook_delivery(endpoint_id: str, delivery_id: str):
    delivery = _load_delivery(endpoint_id, delivery_id)
    if not is_htmx():
        return redirect(
            url_for("portal.webhook_detail", endpoint_id=endpoint_id, _anchor=f"dlv-{delivery.id}")
        )
    poll = request.args.get("poll", type=int)
    return render_template(
        "portal/webhooks/_delivery.html",
        row=_delivery_view(delivery, poll=None if poll is None else poll + 1),
        endpoint=delivery.endpoint,
    )


@bp.post("/webhooks/<endpoint_id>/deliveries/<delivery_id>/retry")
@roles_required(*ADMIN)
@transactional
def retry_webhook_delivery(endpoint_id: str, delivery_id: str):
    delivery = _load_delivery(endpoint_id, delivery_id)
    message = None
    try:
        deliveries.retry_delivery(delivery, portal_actor())
    except DomainError as error:
        db.session.rollback()
        delivery = _load_delivery(endpoint_id, delivery_id)
        message = error.message
    if is_htmx():
        return render_template(
            "portal/webhooks/_delivery.html",
            row=_delivery_view(delivery, poll=None if message else 0),
            endpoint=delivery.endpoint,
            message=message,
        )
    flash(
        message or f"Delivery {delivery.id} is being attempted again.",
        "error" if message else "success",
    )
    return redirect(url_for("portal.webhook_detail", endpoint_id=endpoint_id))


def _utc(value: str | None) -> datetime | None:
    """A datetime-local field's value, read as UTC (the page says so), or None."""
    try:
        return datetime.fromisoformat(value or "").replace(tzinfo=UTC)
    except ValueError:
        return None


@bp.post("/webhooks/<endpoint_id>/replay")
@roles_required(*ADMIN)
@transactional
def replay_webhook_events(endpoint_id: str):
    endpoint = _load(endpoint_id)
    start, end = _utc(request.form.get("from")), _utc(request.form.get("to"))
    if start is None or end is None:
        flash("Give both ends of the range as dates and times.", "error")
        return redirect(url_for("portal.webhook_detail", endpoint_id=endpoint_id))
    try:
        count = replay.replay(endpoint, start, end, portal_actor())
    except DomainError as error:
        db.session.rollback()
        flash(error.errors[0].message if error.errors else error.message, "error")
        return redirect(url_for("portal.webhook_detail", endpoint_id=endpoint_id))
    flash(f"Replaying {count} event{'s' if count != 1 else ''} to this endpoint.", "success")
    return redirect(url_for("portal.webhook_detail", endpoint_id=endpoint_id))

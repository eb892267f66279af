"""The bell and the Notifications page: every signed-in tenant user sees their own
notifications, newest first, marks one or all read (htmx; plain forms without JavaScript),
follows a notification to what it is about (which reads it), and turns the e-mail channel
on or off. The bell's unread count is in the top bar of every page and refreshes itself
every minute."""

from __future__ import annotations

from typing import Any

from flask import Flask, flash, redirect, render_template, request, url_for
from flask_login import current_user

from models import Notification, User
from portal.access import TENANT_ROLES, is_htmx, roles_required
from portal.blueprint import bp
from services.core import smtp
from services.core.transaction import transactional
from services.notifications import channels, notifications

PAGE_SIZE = 30


def _is_tenant_user() -> bool:
    return bool(
        current_user.is_authenticated and not current_user.is_support and current_user.tenant_id
    )


def unread_count() -> int | None:
    """The bell's number; None for who has no notifications (support staff, signed out)."""
    if not _is_tenant_user():
        return None
    return notifications.unread_count(current_user.tenant_id, current_user.id)


def subject_of(notification: Notification) -> tuple[str, str] | None:
    """Where the notification's subject lives in the portal and what to call the link, when
    it has a page: the approval before its document (acting is what the approver came for)."""
    data: dict[str, Any] = notification.data or {}
    if "workflowInstanceId" in data:
        url = url_for("portal.approval_detail", instance_id=data["workflowInstanceId"])
        return url, "Open the approval"
    if "webhookId" in data:
        url = url_for("portal.webhook_detail", endpoint_id=data["webhookId"])
        return url, "Open the webhook endpoint"
    if "keyId" in data:
        return url_for("portal.key_detail", key_id=data["keyId"]), "Open the API key"
    if "documentId" in data:  # a note's mention, on the document's page
        anchor = "notes" if "noteId" in data else None
        url = url_for("portal.document_detail", document_id=data["documentId"], _anchor=anchor)
        return url, "Open the document"
    if notification.type == "api.deprecation_notice":
        return url_for("portal.deprecation_notices"), "Open the deprecation notices"
    if "mailAccountId" in data:
        return (
            url_for("portal.mail_accounts_page", _anchor=f"row-{data['mailAccountId']}"),
            "Open the mail accounts",
        )
    return None


def link_of(notification: Notification) -> str | None:
    """The subject's page, reached through the notification (which marks it read)."""
    if subject_of(notification) is None:
        return None
    return url_for("portal.open_notification", notification_id=notification.id)


def link_label_of(notification: Notification) -> str:
    subject = subject_of(notification)
    return subject[1] if subject else ""


def mount(app: Flask) -> None:
    @app.context_processor
    def bell_context():
        return {"unread_notifications": unread_count}


@bp.get("/notifications")
@roles_required(*TENANT_ROLES)
def notifications_page():
    unread_only = request.args.get("show") == "unread"
    before = request.args.get("before", type=str)
    rows, more = notifications.list_notifications(
        current_user.tenant_id,
        current_user.id,
        PAGE_SIZE,
        [before] if before else None,
        True if unread_only else None,
    )
    return render_template(
        "portal/notifications/index.html",
        rows=rows,
        more=more,
        unread_only=unread_only,
        link_of=link_of,
        link_label_of=link_label_of,
        unread=unread_count(),
        email_on=channels.email_on(current_user.id),
        smtp_configured=smtp.configured(),
    )


@bp.get("/notifications/bell")
@roles_required(*TENANT_ROLES)
def notifications_bell():
    return render_template("portal/notifications/_bell.html")


@bp.post("/notifications/<notification_id>/read")
@roles_required(*TENANT_ROLES)
@transactional
def read_notification(notification_id: str):
    notification = notifications.get_notification(
        current_user.tenant_id, current_user.id, notification_id
    )
    notifications.mark_read(notification)
    if is_htmx():
        return render_template(
            "portal/notifications/_item.html",
            n=notification,
            link_of=link_of,
            link_label_of=link_label_of,
            oob_bell=True,
        )
    return redirect(url_for("portal.notifications_page"))


@bp.get("/notifications/<notification_id>/open")
@roles_required(*TENANT_ROLES)
@transactional
def open_notification(notification_id: str):
    """Follow a notification to its subject; following it is reading it, so the bell drops."""
    notification = notifications.get_notification(
        current_user.tenant_id, current_user.id, notification_id
    )
    notifications.mark_read(notification)
    subject = subject_of(notification)
    return redirect(subject[0] if subject else url_for("portal.notifications_page"))


@bp.post("/notifications/read-all")
@roles_required(*TENANT_ROLES)
@transactional
def read_all_notifications():
    notifications.mark_all_read(current_user.tenant_id, current_user.id)
    return redirect(url_for("portal.notifications_page"))


@bp.post("/notifications/settings")
@roles_required(*TENANT_ROLES)
@transactional
def notification_settings():
    """The person's e-mail channel: on, each new notification is also mailed to them."""
    enabled = request.form.get("email") == "on"
    channels.set_email(User.get_for_tenant(current_user.id, current_user.tenant_id), enabled)
    flash(
        "Your notifications are e-mailed to you as well."
        if enabled
        else "Your notifications are no longer e-mailed.",
        "success",
    )
    return redirect(url_for("portal.notifications_page"))

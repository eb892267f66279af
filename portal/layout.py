"""What every portal template can use: the navigation for the signed-in role, the workspace,
whether the reader may change things, and display filters for times and audit actions."""

from __future__ import annotations

from datetime import datetime

from flask import Flask, current_app, request, url_for
from flask_login import current_user

import clock
from errors import DomainError
from portal.access import can_write
from portal.nav import entries_for

# Pages that show a secret once, and their answers to a form that created one.
NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}

ACTION_LABELS = {
    "api_key.created": "API key created",
    "api_key.rotated": "API key rotated",
    "api_key.revoked": "API key revoked",
    "api_key.updated": "API key changed",
    "api_key.secret_reissued": "API key given a new secret",
    "api_key.used": "API key used (first use of the day)",
    "user.login": "Signed in",
    "user.login_failed": "Sign-in failed",
    "user.logout": "Signed out",
    "user.created": "User added",
    "user.role_changed": "Role changed",
    "user.deactivated": "User deactivated",
    "user.reactivated": "User reactivated",
    "user.password_changed": "Password changed",
    "oauth_client.created": "OAuth app registered",
    "oauth_client.updated": "OAuth app changed",
    "oauth_client.deleted": "OAuth app deleted",
    "oauth_client.secret_rotated": "OAuth app secret rotated",
    "oauth.consent_granted": "App allowed",
    "oauth.consent_denied": "App denied",
    "oauth.consent_revoked": "App's access revoked",
    "oauth.token_issued": "Token issued to an app",
    "oauth.token_revoked": "Token revoked",
    "oauth.code_reused": "Authorization code replayed (tokens revoked)",
    "oauth.refresh_reused": "Refresh token replayed (family revoked)",
    "user.signed_out_everywhere": "Signed out everywhere",
    "passkey.registered": "Passkey added",
    "passkey.renamed": "Passkey renamed",
    "passkey.removed": "Passkey removed",
    "mfa.totp_enabled": "Two-factor sign-in turned on",
    "mfa.totp_disabled": "Two-factor sign-in turned off",
    "mfa.totp_reset": "Two-factor sign-in reset by an admin",
    "mfa.recovery_code_used": "Recovery code used",
    "mfa.failed": "Wrong second-factor code",
    "mfa.required": "Second factor required for everyone",
    "mfa.not_required": "Second factor no longer required",
    "invitation.created": "Person invited",
    "invitation.revoked": "Invitation revoked",
    "invitation.accepted": "Invitation accepted",
    "custom_field.created": "Custom field created",
    "custom_field.updated": "Custom field changed",
    "custom_field.deleted": "Custom field deleted (with its values)",
    "document.custom_fields_changed": "Document's custom fields set",
    "document.folder_imported": "Documents imported from a folder",
    "push.subscribed": "Device subscribed to push notifications",
    "push.unsubscribed": "Device unsubscribed from push notifications",
    "webhook.created": "Webhook endpoint added",
    "webhook.updated": "Webhook endpoint changed",
    "webhook.deleted": "Webhook endpoint deleted",
    "webhook.secret_rotated": "Webhook secret rotated",
    "webhook.delivery_retried": "Webhook delivery retried",
    "webhook.replayed": "Events replayed to a webhook endpoint",
    "workflow.definition_created": "Workflow defined",
    "workflow.definition_updated": "Workflow definition changed",
    "workflow.started": "Workflow started",
    "workflow.approved": "Workflow step approved",
    "workflow.rejected": "Workflow rejected",
    "workflow.cancelled": "Workflow cancelled",
    "workflow.escalated": "Workflow step escalated",
    "tenant.created": "Workspace created",
    "tenant.limits_changed": "Plan limits changed",
    "tenant.copilot_quota_changed": "Copilot quota changed",
    "tenant.imported": "Workspace imported from an archive",
    "support.audit_viewed": "Support staff viewed the audit log",
    "document.trashed": "Document moved to the trash",
    "document.restored": "Document restored from the trash",
    "document.purged": "Document purged from the trash",
    "document.bulk_edited": "Document changed by a bulk edit",
    "form.created": "Form created",
    "form.updated": "Form changed",
    "form.published": "Form published",
    "form.archived": "Form archived",
    "entity.created": "Entity created",
    "entity.updated": "Entity changed",
    "entity.deleted": "Entity deleted",
    "relationship.created": "Relationship created",
    "relationship.deleted": "Relationship deleted",
    "note.created": "Note added to a document",
    "note.deleted": "Note deleted",
    "saved_view.created": "Saved view made",
    "saved_view.updated": "Saved view changed",
    "saved_view.deleted": "Saved view deleted",
    "mail_account.created": "Mail account added",
    "mail_account.updated": "Mail account changed",
    "mail_account.deleted": "Mail account deleted",
    "mail_account.poll_requested": "Mail account polled on request",
    "mail_account.message_imported": "Documents imported from a mail message",
    "share_link.created": "Share link created",
    "share_link.downloaded": "Downloaded through a share link",
    "share_link.revoked": "Share link revoked",
    "share_links.enabled": "Share links turned on",
    "share_links.disabled": "Share links turned off",
    "matching_rule.created": "Matching rule created",
    "matching_rule.updated": "Matching rule changed",
    "matching_rule.deleted": "Matching rule deleted",
    "matching_rules.applied": "Changed by matching rules",
}


def _nav():
    if not current_user.is_authenticated:
        return []
    known = current_app.view_functions
    return [
        {"label": e.label, "url": url_for(e.endpoint), "current": request.endpoint == e.endpoint}
        for e in entries_for(current_user.role)
        if e.endpoint in known  # a page whose module is not installed is simply not listed
    ]


def when(value: datetime | str | None) -> str:
    """`2026-11-21 10:00 UTC`; empty for None. Takes a wire timestamp (`2026-11-21T10:00:00Z`)
    too, so pages built from wire shapes show people a time, not an RFC 3339 string; the
    portal's script turns `<time data-local>` into the reader's own time zone."""
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value)
        except ValueError:
            return value
    return value.strftime("%Y-%m-%d %H:%M UTC") if value else ""


def ago(value: datetime | None) -> str:
    if value is None:
        return "never"
    seconds = int((clock.now() - value).total_seconds())
    if seconds < 60:
        return "just now"
    for size, unit in ((86400, "day"), (3600, "hour"), (60, "minute")):
        if seconds >= size:
            n = seconds // size
            return f"{n} {unit}{'s' if n != 1 else ''} ago"
    return "just now"


def init_app(app: Flask) -> None:
    app.jinja_env.filters["when"] = when
    app.jinja_env.filters["ago"] = ago
    app.jinja_env.filters["rfc3339"] = clock.rfc3339
    app.jinja_env.filters["action_label"] = lambda action: ACTION_LABELS.get(action, action)

    @app.context_processor
    def portal_context():
        return {"nav_entries": _nav, "can_write": can_write}


def field_errors(error: DomainError) -> dict[str, list[str]]:
    """The service's error objects grouped by form field, for messages beside each input."""
    grouped: dict[str, list[str]] = {}
    for item in error.errors:
        grouped.setdefault(item.field or "form", []).append(item.message)
    return grouped

"""Notifications resource (CONTRACT §4, §9): a person's own notifications, newest first, and
marking one read. A person is needed (a user's access token); an API key acts for a system and
has no notifications (403 USER_CONTEXT_REQUIRED). Routes only: services/notifications works."""

from __future__ import annotations

from api.auth import current_credential, require_scope, require_user
from api.blueprint import bp
from api.envelope import ok, ok_list
from api.openapi_rules import operation
from api.pagination import id_position
from api.validation import query_args, responds
from services.core.cursors import binding_of, encode_cursor
from services.core.transaction import transactional
from services.notifications import notifications, wire
from services.notifications.wire import NotificationListQuery, NotificationOut
from tenancy import current_tenant


@bp.get("/notifications")
@require_scope("notifications:read")
@require_user
@query_args(NotificationListQuery)
@responds(NotificationOut, many=True)
def list_notifications(query: NotificationListQuery):
    """The caller's notifications, newest first; `unread=true` for the bell's list."""
    binding = binding_of(
        current_tenant.id,
        resource="notifications",
        user=current_credential.id,
        unread=query.unread,
    )
    rows, more = notifications.list_notifications(
        current_tenant.id,
        current_credential.id,
        query.limit,
        id_position(query.cursor, binding),
        query.unread,
    )
    next_cursor = encode_cursor(binding, [rows[-1].id]) if more else None
    return ok_list(
        wire.notifications_data(rows),
        limit=query.limit,
        next_cursor=next_cursor,
        extra_meta={"unread": notifications.unread_count(current_tenant.id, current_credential.id)},
    )


@bp.get("/notifications/<notification_id>")
@require_scope("notifications:read")
@require_user
@responds(NotificationOut)
def get_notification(notification_id: str):
    notification = notifications.get_notification(
        current_tenant.id, current_credential.id, notification_id
    )
    return ok(wire.notification_data(notification))


@bp.post("/notifications/<notification_id>/read")
@require_scope("notifications:write")
@require_user
@transactional
@responds(NotificationOut)
@operation("markNotificationRead", takes_body=False)
def read_notification(notification_id: str):
    """Mark the notification read (idempotent: the first reading time stays)."""
    notification = notifications.get_notification(
        current_tenant.id, current_credential.id, notification_id
    )
    return ok(wire.notification_data(notifications.mark_read(notification)))

"""A notification as it goes over the wire, both ways (CONTRACT §9): the list's query, and the
notification answered with what became of its pushes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import Field

from models import Notification
from services.core.wire import PageQuery, Timestamp, Wire
from services.push.wire import PushDeliveryOut, deliveries_by_notification

# --- requests ----------------------------------------------------------------------------------


class NotificationListQuery(PageQuery):
    """GET /notifications: the caller's own, newest first."""

    unread: bool | None = Field(
        None, description="true: only unread ones; false: only read ones; absent: all."
    )


# --- responses ---------------------------------------------------------------------------------


class NotificationOut(Wire):
    id: str
    type: str = Field(description="The cause (docs/notifications.md lists them).")
    title: str
    body: str
    data: dict[str, Any] = Field(description="Ids of what the notification is about.")
    read_at: Timestamp | None
    created_at: Timestamp
    deliveries: list[PushDeliveryOut] = Field(
        description="One entry per device the notification was pushed to (docs/push.md)."
    )


def notifications_data(rows: Sequence[Notification]) -> list[dict[str, Any]]:
    pushes = deliveries_by_notification(rows[0].tenant_id, [n.id for n in rows]) if rows else {}
    return [
        NotificationOut.model_validate(
            {
                "id": n.id,
                "type": n.type,
                "title": n.title,
                "body": n.body,
                "data": n.data,
                "read_at": n.read_at,
                "created_at": n.created_at,
                "deliveries": pushes[n.id],
            }
        ).model_dump(mode="json", by_alias=True)
        for n in rows
    ]


def notification_data(notification: Notification) -> dict[str, Any]:
    return notifications_data([notification])[0]

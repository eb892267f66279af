"""Request models of the notifications resource; the responses are in
services/notifications/wire.py."""

from __future__ import annotations

from pydantic import Field

from api.pagination import PageQuery


class NotificationListQuery(PageQuery):
    """GET /notifications: the caller's own, newest first."""

    unread: bool | None = Field(
        None, description="true: only unread ones; false: only read ones; absent: all."
    )

"""Creating, listing and reading notifications. A notification belongs to one person; a
cause that may repeat (a failing endpoint, a key due for rotation) carries a dedupe key, so
the person gets it once, however often the cause is seen. Every new notification emits
`notification.created` (webhooks) and the `notification_created` signal (push to devices),
in the creating unit of work."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select, update

import clock
from errors import not_found
from extensions import db
from models import Notification, User
from models.accounts import Role
from models.base import new_id
from services.core import events, signals, upserts
from services.core.paging import keyset_page
from services.notifications import channels


@dataclass(frozen=True)
class Message:
    """What a notification says; `type` names the cause (docs/notifications.md lists them)."""

    type: str
    title: str
    body: str = ""
    data: dict[str, Any] | None = None


def notify(
    tenant_id: str, user_id: str, message: Message, dedupe_key: str | None = None
) -> Notification | None:
    """Give `user_id` a notification; None when one with this dedupe key exists already (a
    concurrent writer included: the unique (user_id, dedupe_key) decides, not a read)."""
    table = Notification.__table__
    values = {
        "id": new_id("ntf"),
        "tenant_id": tenant_id,
        "user_id": user_id,
        "type": message.type,
        "title": message.title[:200],
        "body": message.body,
        "data": message.data or {},
        "dedupe_key": dedupe_key,
        "created_at": clock.now(),
    }
    created = db.session.execute(
        upserts.insert(table)
        .values(**values)
        .on_conflict_do_nothing(index_elements=["user_id", "dedupe_key"])
        .returning(table.c.id)
    ).scalar()
    if created is None:
        return None
    notification = Notification.get_for_tenant(created, tenant_id)
    events.emit(tenant_id, "notification.created", {"notification": event_data(notification)})
    signals.notification_created.send(notification)
    channels.mail(notification)
    return notification


def notify_admins(
    tenant_id: str, message: Message, dedupe_key: str | None = None
) -> list[Notification]:
    """Notify every active admin of the tenant (each folds its own repeats)."""
    admins = db.session.scalars(
        select(User.id).where(
            User.tenant_id == tenant_id,
            User.role == Role.ADMIN.value,
            User.is_active_user.is_(True),
        )
    )
    created = [notify(tenant_id, admin, message, dedupe_key) for admin in admins]
    return [n for n in created if n is not None]


def event_data(notification: Notification) -> dict[str, Any]:
    """The notification as `notification.created` carries it (no push deliveries yet)."""
    return {
        "id": notification.id,
        "userId": notification.user_id,
        "type": notification.type,
        "title": notification.title,
        "body": notification.body,
        "data": notification.data,
        "createdAt": clock.rfc3339(notification.created_at),
    }


def get_notification(tenant_id: str, user_id: str, notification_id: str) -> Notification:
    """The person's own notification; anyone else's id is a 404, as a missing one is."""
    notification = Notification.get_for_tenant(notification_id, tenant_id)
    if notification.user_id != user_id:
        raise not_found(Notification.__not_found_label__)
    return notification


def list_notifications(
    tenant_id: str,
    user_id: str,
    limit: int,
    position: Sequence[Any] | None,
    unread: bool | None = None,
) -> tuple[list[Notification], bool]:
    """The person's notifications, newest first; `unread` True/False filters on read_at."""
    stmt = Notification.query_for_tenant(tenant_id).where(Notification.user_id == user_id)
    if unread is True:
        stmt = stmt.where(Notification.read_at.is_(None))
    elif unread is False:
        stmt = stmt.where(Notification.read_at.is_not(None))
    return keyset_page(stmt, [(Notification.id, True)], limit, position)


def unread_count(tenant_id: str, user_id: str) -> int:
    return db.session.scalar(
        select(func.count())
        .select_from(Notification)
        .where(
            Notification.tenant_id == tenant_id,
            Notification.user_id == user_id,
            Notification.read_at.is_(None),
        )
    )


def mark_read(notification: Notification) -> Notification:
    """Idempotent: the first reading time stays."""
    if notification.read_at is None:
        notification.read_at = clock.now()
        db.session.flush()
    return notification


def settle(tenant_id: str, key: str, value: str, user_id: str | None = None) -> int:
    """Mark read the unread notifications about one subject (`data[key] == value`, e.g.
    `workflowInstanceId`), of one person or of everyone: once the subject is acted on (an
    approval given, a workflow ended) they have nothing left to ask, and the bell agrees with
    the pages. How many were marked."""
    stmt = (
        update(Notification)
        .where(
            Notification.tenant_id == tenant_id,
            Notification.read_at.is_(None),
            Notification.data[key].as_string() == value,
        )
        .values(read_at=clock.now())
        .execution_options(synchronize_session=False)
    )
    if user_id is not None:
        stmt = stmt.where(Notification.user_id == user_id)
    return db.session.execute(stmt).rowcount


def mark_all_read(tenant_id: str, user_id: str) -> int:
    """Mark every unread notification of the person read; how many were."""
    result = db.session.execute(
        update(Notification)
        .where(
            Notification.tenant_id == tenant_id,
            Notification.user_id == user_id,
            Notification.read_at.is_(None),
        )
        .values(read_at=clock.now())
        .execution_options(synchronize_session=False)
    )
    return result.rowcount

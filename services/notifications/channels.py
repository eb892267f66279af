"""A person's channels beyond the bell and push: e-mail, off until they turn it on (the
Notifications page). With it on and `DMS_SMTP_URL` set, each new notification is also
mailed, by a job after the creating unit of work commits (services/core/smtp.py)."""

from __future__ import annotations

import clock
from extensions import db
from models import Notification, NotificationSettings, User
from services.core import smtp


def email_on(user_id: str) -> bool:
    row = db.session.get(NotificationSettings, user_id)
    return row is not None and row.email


def set_email(user: User, enabled: bool) -> None:
    row = db.session.get(NotificationSettings, user.id)
    if row is None:
        row = NotificationSettings(user_id=user.id)
        db.session.add(row)
    row.email = enabled
    row.updated_at = clock.now()
    db.session.flush()


def mail(notification: Notification) -> None:
    """Queue the notification's e-mail when its person turned the channel on."""
    if not smtp.configured() or not email_on(notification.user_id):
        return
    user = User.find_for_tenant(notification.user_id, notification.tenant_id)
    if user is None or not user.is_active:
        return
    text = (
        f"{notification.title}\n\n{notification.body}\n\n".replace("\n\n\n\n", "\n\n")
        + "You see this and your other notifications on the Notifications page of the portal. "
        "To stop these e-mails, turn the e-mail channel off there.\n"
    )
    smtp.send_later(user.email, notification.title, text)

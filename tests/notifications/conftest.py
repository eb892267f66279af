"""Notification fixtures: give a person a notification through the service, and call the API
with that person's access token."""

from __future__ import annotations

import pytest

from tests.helpers import bearer
from tests.smtp_server import smtp_server


@pytest.fixture
def notify(app):
    """Notify a user through the service and commit; the notification's id, or None when
    its dedupe key folded it into an earlier one."""
    from services.core import transaction
    from services.notifications.notifications import Message, notify

    def factory(user, title: str = "Hello", dedupe_key: str | None = None, **fields) -> str | None:
        with app.app_context():
            message = Message(fields.pop("type", "test.message"), title, **fields)
            created = notify(user.tenant_id, user.id, message, dedupe_key)
            transaction.commit()
            return created.id if created else None

    return factory


@pytest.fixture
def as_user(app):
    """Bearer headers of a user's access token (every scope unless `scopes` says)."""

    def factory(tenant, user) -> dict[str, str]:
        return bearer(app, tenant, user)

    return factory


__all__ = ["smtp_server"]

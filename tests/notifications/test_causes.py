"""Causes that are not webhooks: a deprecated call (the admins hear once per item and day, as
the event), and the daily reminder of API keys due for rotation (once per key, ever)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import update

import clock
from tests.helpers import auth_headers, notifications_of

T0 = datetime(2026, 11, 21, 8, 0, tzinfo=UTC)


def test_a_deprecated_call_tells_the_admins_once_a_day(
    app, client, tenant, admin, member, create_key
):
    _key, secret = create_key(tenant)
    clock.freeze(T0)
    for _ in range(3):
        client.get("/api/v1/entities", headers=auth_headers(secret, tenant.id))
    [(kind, title, data)] = notifications_of(app, admin)
    assert kind == "api.deprecation_notice" and "/api/v1/entities" in title
    assert data["replacement"] == "/api/v1/knowledge-graph/entities"
    clock.shift(timedelta(days=1))
    client.get("/api/v1/entities", headers=auth_headers(secret, tenant.id))
    assert len(notifications_of(app, admin)) == 2
    assert notifications_of(app, member) == []


def test_keys_due_for_rotation_are_reminded_once(
    app, tenant, other_tenant, admin, member, create_key, create_user
):
    from extensions import db
    from models import ApiKey
    from services.core import transaction
    from services.notifications import causes

    stranger = create_user(other_tenant, "admin", email="admin@other.example")
    old, _ = create_key(tenant, name="old")
    create_key(tenant, name="fresh")
    rotated, _ = create_key(tenant, name="rotated")
    with app.app_context():
        db.session.execute(
            update(ApiKey)
            .where(ApiKey.id.in_([old.id, rotated.id]))
            .values(created_at=clock.now() - timedelta(days=91))
        )
        db.session.execute(
            update(ApiKey).where(ApiKey.id == rotated.id).values(rotated_at=clock.now())
        )
        db.session.commit()
        assert transaction.transactional(causes.remind_key_rotations)() == 1
        assert transaction.transactional(causes.remind_key_rotations)() == 0  # next day
    [(kind, title, data)] = notifications_of(app, admin)
    assert kind == "api_key.rotation_due" and "“old”" in title and data == {"keyId": old.id}
    assert notifications_of(app, member) == [] and notifications_of(app, stranger) == []


def test_the_daily_job_runs_the_reminder(app, tenant, admin, create_key):
    from extensions import db
    from jobs.notifications import remind_key_rotations
    from models import ApiKey

    key, _ = create_key(tenant, name="old")
    with app.app_context():
        db.session.execute(
            update(ApiKey)
            .where(ApiKey.id == key.id)
            .values(created_at=clock.now() - timedelta(days=90))
        )
        db.session.commit()
        assert remind_key_rotations()["rotationReminders"] == 1
    assert [kind for kind, _, _ in notifications_of(app, admin)] == ["api_key.rotation_due"]

"""Portal fixtures: users of each role, support staff and a signed-in admin client."""

from __future__ import annotations

import pytest

from tests.portal.portal_helpers import PASSWORD, sign_in


def _clear_redis(app, *areas: str) -> None:
    from extensions import redis_store

    with app.app_context():
        client = redis_store.client
        for area in areas:
            for key in client.scan_iter(match=redis_store.key(area) + "*", count=500):
                client.delete(key)


@pytest.fixture(autouse=True)
def _fresh_redis_state(app):
    """Sign-in failures and usage counters live in Redis, outside the per-test table wipe."""
    _clear_redis(app, "usage", "login-throttle")
    yield
    _clear_redis(app, "login-throttle")


@pytest.fixture
def admin(tenant, create_user):
    return create_user(tenant, "admin", email="admin@acme.example")


@pytest.fixture
def auditor(tenant, create_user):
    return create_user(tenant, "auditor", email="auditor@acme.example")


@pytest.fixture
def member(tenant, create_user):
    return create_user(tenant, "member", email="member@acme.example")


@pytest.fixture
def support_staff(app):
    from extensions import db
    from services import users

    with app.app_context():
        staff = users.create_support("help@operator.example", password=PASSWORD)
        db.session.commit()
        return staff.id


@pytest.fixture
def admin_client(client, tenant, admin):
    response = sign_in(client, tenant.id, admin.email)
    assert response.status_code == 302, response.get_data(as_text=True)
    return client

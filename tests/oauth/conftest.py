"""Fixtures of the sign-in tests: a registered OAuth app and a person signed in to the
portal."""

from __future__ import annotations

import pytest

from tests.helpers import sign_in

REDIRECT = "https://app.example/callback"


@pytest.fixture
def oauth_app(app, tenant):
    """A public app of `tenant` that may ask for documents and workflows scopes."""
    from extensions import db
    from models import Tenant
    from services.core.actors import Actor
    from services.oauth import clients

    with app.app_context():
        client, _ = clients.create_client(
            db.session.get(Tenant, tenant.id), "Field app", [REDIRECT, "http://localhost:8765/cb"],
            ["documents:read", "documents:write", "workflows:read"], Actor.cli(),
        )  # fmt: skip
        db.session.commit()
        return client.id


@pytest.fixture
def person(client, tenant, create_user):
    """A member, signed in to the portal in `client`."""
    user = create_user(tenant, "member", email="mia@acme.example")
    assert sign_in(client, tenant.id, user.email).status_code == 302
    return user

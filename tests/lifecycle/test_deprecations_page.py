"""The portal's Deprecation notices page: this tenant's deprecated calls by key, days left,
the replacement and the guide, and the changelog; other tenants' calls never show."""

from __future__ import annotations

from datetime import UTC, datetime

import clock
from tests.helpers import auth_headers, sign_in


def test_the_page_lists_deprecated_calls_by_key_with_days_left(
    app, client, tenant, other_tenant, create_user, create_key
):
    admin = create_user(tenant, "admin", email="admin@acme.example")
    _key, secret = create_key(tenant, name="nightly sync")
    _other, other_secret = create_key(other_tenant, name="globex importer")
    clock.freeze(datetime(2026, 11, 21, 9, 0, tzinfo=UTC))
    api = app.test_client()
    for _ in range(4):
        api.get("/api/v1/entities", headers=auth_headers(secret, tenant.id))
    api.get("/api/v1/entities", headers=auth_headers(other_secret, other_tenant.id))

    assert sign_in(client, tenant.id, admin.email).status_code == 302
    page = client.get("/deprecations")

    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "nightly sync" in html
    assert "globex importer" not in html
    assert "<td>4</td>" in html
    assert "retired 51 days ago" in html  # sunset 2026-10-01
    assert "/api/v1/knowledge-graph/entities" in html
    assert 'href="/docs/migrations/entities"' in html
    assert "2027-01-01" in html  # the login form variant, still ahead
    assert "2026-05-01 · v2.4" in html  # the changelog
    assert "Deprecation notices" in client.get("/").get_data(as_text=True)


def test_members_may_not_see_the_page(client, tenant, create_user):
    member = create_user(tenant, "member", email="member@acme.example")
    assert sign_in(client, tenant.id, member.email).status_code == 302

    assert client.get("/deprecations").status_code == 403

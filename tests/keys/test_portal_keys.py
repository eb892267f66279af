"""API key administration through the portal: create, rotate, revoke, allowlists, history."""

from __future__ import annotations

import re

import pytest

from extensions import db
from models import ApiKey
from tests.helpers import audit_actions, auth_headers, post

SECRET_RE = re.compile(r'id="secret"[^>]*value="(dms_[0-9A-Za-z]+)"')


def _create(client, **fields):
    data = {"name": "billing backend", "scopes": ["documents:read"], "allowed_ips": ""}
    data.update(fields)
    return post(client, "/keys", data)


def test_create_shows_the_secret_once_and_it_works_against_the_api(app, admin_client, tenant):
    response = _create(admin_client)
    html = response.get_data(as_text=True)
    assert response.status_code == 201
    assert response.headers["Cache-Control"] == "no-store"
    secret = SECRET_RE.search(html).group(1)
    assert "only time the secret is shown" in html
    api = admin_client.get("/api/v1/documents", headers=auth_headers(secret, tenant.id))
    assert api.status_code == 200
    listing = admin_client.get("/keys").get_data(as_text=True)
    assert "billing backend" in listing
    assert secret not in listing and secret[:20] not in listing
    assert audit_actions(app, tenant.id)[-2:] == ["api_key.created", "api_key.used"]


def test_bad_input_rerenders_with_errors_beside_fields_and_saves_nothing(app, admin_client):
    response = _create(
        admin_client,
        name="   ",
        scopes=["documents:read", "made:up"],
        allowed_ips="10.0.0.0/8\nnot-an-ip\n300.1.1.1",
        hourly_quota="lots",
    )
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "Name is required." in html
    assert "Unknown scope(s): made:up." in html
    assert "Line 2: &#39;not-an-ip&#39;" in html and "Line 3: &#39;300.1.1.1&#39;" in html
    assert "Hourly quota must be a whole number" in html
    assert "10.0.0.0/8\nnot-an-ip\n300.1.1.1</textarea>" in html  # what was typed is kept
    assert 'value="documents:read" checked' in html
    assert 'aria-invalid="true"' in html
    with app.app_context():
        assert db.session.query(ApiKey).count() == 0


def test_duplicate_name_and_empty_scopes_are_refused(app, admin_client, tenant, create_key):
    create_key(tenant, name="billing backend")
    response = _create(admin_client, scopes=[])
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "An active key is already named" in html
    assert "Choose at least one scope." in html
    with app.app_context():
        assert db.session.query(ApiKey).count() == 1


def test_a_valid_quota_with_bad_scopes_still_saves_nothing(app, admin_client):
    response = _create(admin_client, scopes=["nope"], hourly_quota="50")
    assert response.status_code == 422
    assert 'value="50"' in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.query(ApiKey).count() == 0


def test_rotate_creates_a_successor_and_walks_through_the_three_steps(
    app, admin_client, tenant, api_key
):
    key, old_secret = api_key
    confirm = admin_client.get(f"/keys/{key.id}/rotate")
    assert "Create the successor key" in confirm.get_data(as_text=True)
    response = post(admin_client, f"/keys/{key.id}/rotate")
    html = response.get_data(as_text=True)
    assert response.status_code == 201
    for step in ("Step 1", "Step 2", "Step 3"):
        assert step in html
    new_secret = SECRET_RE.search(html).group(1)
    for secret in (old_secret, new_secret):  # both work until the old one is revoked
        api = admin_client.get("/api/v1/documents", headers=auth_headers(secret, tenant.id))
        assert api.status_code == 200
    listing = admin_client.get("/keys").get_data(as_text=True)
    assert "replaced by" in listing and "replaces" in listing
    assert "api_key.rotated" in audit_actions(app, tenant.id)


def test_revoke_asks_for_confirmation_then_the_key_is_dead(app, admin_client, tenant, api_key):
    key, secret = api_key
    confirm = admin_client.get(f"/keys/{key.id}/revoke")
    assert "Revoke this key" in confirm.get_data(as_text=True)
    response = post(admin_client, f"/keys/{key.id}/revoke")
    assert response.status_code == 302
    api = admin_client.get("/api/v1/documents", headers=auth_headers(secret, tenant.id))
    assert api.status_code == 401
    assert api.get_json()["errors"][0]["code"] == "API_KEY_REVOKED"
    assert audit_actions(app, tenant.id)[-1] == "api_key.revoked"


def test_revoke_over_htmx_answers_only_the_row(admin_client, api_key):
    key, _ = api_key
    from tests.helpers import csrf_token

    token = csrf_token(admin_client, "/keys")
    response = admin_client.post(
        f"/keys/{key.id}/revoke", headers={"HX-Request": "true", "X-CSRFToken": token}
    )
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert html.lstrip().startswith(f'<tr id="row-{key.id}"')
    assert "Revoked" in html and "<html" not in html


def test_edit_allowlist_with_a_bad_line_keeps_input_then_saves_a_good_one(
    app, admin_client, tenant, api_key
):
    key, secret = api_key
    bad = post(admin_client, f"/keys/{key.id}/settings", {"allowed_ips": "10.1.0.0/16\nfoo"})
    assert bad.status_code == 422
    assert "Line 2: &#39;foo&#39;" in bad.get_data(as_text=True)
    assert "10.1.0.0/16\nfoo</textarea>" in bad.get_data(as_text=True)
    good = post(
        admin_client,
        f"/keys/{key.id}/settings",
        {"allowed_ips": "203.0.113.0/24", "hourly_quota": "500"},
    )
    assert good.status_code == 302
    with app.app_context():
        stored = db.session.get(ApiKey, key.id)
        assert stored.allowed_ips == ["203.0.113.0/24"] and stored.hourly_quota == 500
    api = admin_client.get("/api/v1/documents", headers=auth_headers(secret, tenant.id))
    assert api.status_code == 403  # the test client calls from 127.0.0.1
    assert audit_actions(app, tenant.id)[-1] == "api_key.updated"


def test_key_detail_shows_its_history(admin_client, tenant, api_key):
    key, _ = api_key
    post(admin_client, f"/keys/{key.id}/settings", {"allowed_ips": "10.0.0.0/8"})
    html = admin_client.get(f"/keys/{key.id}").get_data(as_text=True)
    assert "API key created" in html and "API key changed" in html
    assert "Traffic, last 24 hours" in html and "<svg" in html


def test_another_tenants_key_answers_404_everywhere(admin_client, other_tenant, create_key):
    key, _ = create_key(other_tenant)
    assert admin_client.get(f"/keys/{key.id}").status_code == 404
    assert admin_client.get(f"/keys/{key.id}/rotate").status_code == 404
    assert post(admin_client, f"/keys/{key.id}/revoke").status_code == 404
    assert post(admin_client, f"/keys/{key.id}/rotate").status_code == 404
    assert post(admin_client, f"/keys/{key.id}/settings", {"allowed_ips": ""}).status_code == 404


def test_keys_table_shows_last_use_and_requests_in_the_last_24_hours(admin_client, tenant, api_key):
    _, secret = api_key
    for _ in range(3):
        admin_client.get("/api/v1/documents", headers=auth_headers(secret, tenant.id))
    html = admin_client.get("/keys").get_data(as_text=True)
    assert 'data-requests-24h="3"' in html
    assert "127.0.0.1" in html
    assert "3 requests in the last 24 hours" in html


def test_only_a_bad_quota_still_saves_nothing(app, admin_client):
    response = _create(admin_client, hourly_quota="-5")
    assert response.status_code == 422
    assert "Hourly quota must be a whole number" in response.get_data(as_text=True)
    assert 'value="billing backend"' in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.query(ApiKey).count() == 0


@pytest.mark.parametrize(
    "quota", ["9" * 5000, "²", "99999999999"], ids=["5000-digits", "superscript", "over-the-column"]
)
def test_a_quota_no_column_can_hold_is_refused_in_the_form(app, admin_client, quota):
    response = _create(admin_client, hourly_quota=quota)
    assert response.status_code == 422
    assert "Hourly quota must be" in response.get_data(as_text=True)

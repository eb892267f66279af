"""The Users page: add people, change roles, deactivate; every change in the audit log."""

from __future__ import annotations

from extensions import db
from models import User
from tests.helpers import audit_actions, csrf_token, post, sign_in


def test_admin_adds_a_user_who_can_then_sign_in(app, admin_client, client, tenant):
    response = post(
        admin_client,
        "/users",
        {"email": "new@acme.example", "role": "auditor", "password": "long enough pw"},
    )
    assert response.status_code == 302
    assert "new@acme.example" in admin_client.get("/users").get_data(as_text=True)
    assert audit_actions(app, tenant.id)[-1] == "user.created"
    fresh = app.test_client()
    assert sign_in(fresh, tenant.id, "new@acme.example", "long enough pw").status_code == 302


def test_bad_user_input_keeps_what_was_typed(app, admin_client, admin):
    response = post(
        admin_client, "/users", {"email": "not-an-email", "role": "member", "password": "x" * 12}
    )
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "is not an email address" in html and 'value="not-an-email"' in html
    duplicate = post(
        admin_client, "/users", {"email": admin.email, "role": "member", "password": "x" * 12}
    )
    assert "already has an account" in duplicate.get_data(as_text=True)
    short = post(
        admin_client, "/users", {"email": "a@acme.example", "role": "member", "password": "short"}
    )
    assert "at least 10 characters" in short.get_data(as_text=True)
    with app.app_context():
        assert db.session.query(User).count() == 1


def test_role_change_and_deactivation_are_audited_and_take_effect(
    app, admin_client, tenant, member
):
    assert post(admin_client, f"/users/{member.id}/role", {"role": "auditor"}).status_code == 302
    assert post(admin_client, f"/users/{member.id}/active", {"active": "0"}).status_code == 302
    with app.app_context():
        stored = db.session.get(User, member.id)
        assert stored.role == "auditor" and stored.is_active_user is False
    assert audit_actions(app, tenant.id)[-2:] == ["user.role_changed", "user.deactivated"]
    assert sign_in(app.test_client(), tenant.id, member.email).status_code == 401


def test_role_change_over_htmx_returns_the_row(admin_client, member):
    token = csrf_token(admin_client, "/users")
    response = admin_client.post(
        f"/users/{member.id}/role",
        data={"role": "admin"},
        headers={"HX-Request": "true", "X-CSRFToken": token},
    )
    assert response.status_code == 200
    assert response.get_data(as_text=True).lstrip().startswith(f'<tr id="user-{member.id}"')


def test_admins_cannot_lock_themselves_out(app, admin_client, admin):
    response = post(admin_client, f"/users/{admin.id}/active", {"active": "0"})
    assert response.status_code == 302
    assert "cannot deactivate your own account" in admin_client.get("/users").get_data(True)
    with app.app_context():
        assert db.session.get(User, admin.id).is_active_user is True


def test_another_tenants_user_answers_404(admin_client, other_tenant, create_user):
    stranger = create_user(other_tenant, "member", email="x@globex.example")
    assert post(admin_client, f"/users/{stranger.id}/role", {"role": "admin"}).status_code == 404
    assert post(admin_client, f"/users/{stranger.id}/active", {"active": "0"}).status_code == 404

"""Sign-in, sign-out, session safety, throttling and their audit entries."""

from __future__ import annotations

from tests.portal.portal_helpers import PASSWORD, audit_actions, csrf_token, sign_in


def test_login_page_asks_for_the_workspace_and_prefills_it_from_x_tenant_id(client):
    page = client.get("/login", headers={"X-Tenant-Id": "acme"})
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert 'name="workspace" value="acme"' in html
    assert 'name="email"' in html and 'name="password"' in html
    assert '<label for="email">' in html and '<label for="password">' in html


def test_login_page_on_a_tenant_subdomain_does_not_ask_for_the_workspace(make_app, tenant):
    app = make_app(DMS_BASE_DOMAIN="dms.example")
    html = app.test_client().get("/login", base_url="http://acme.dms.example").get_data(True)
    assert 'name="workspace"' not in html
    assert tenant.name in html


def test_admin_signs_in_lands_on_the_dashboard_and_the_login_is_audited(app, client, tenant, admin):
    response = sign_in(client, tenant.id, admin.email)
    assert response.status_code == 302
    assert response.headers["Location"] == "/"
    dashboard = client.get("/")
    assert dashboard.status_code == 200
    assert "Requests this hour" in dashboard.get_data(as_text=True)
    assert audit_actions(app, tenant.id)[-1] == "user.login"


def test_session_cookie_flags_and_rotation_at_login(client, tenant, admin):
    client.get("/login")
    before = client.get_cookie("session")
    response = sign_in(client, tenant.id, admin.email)
    cookie = response.headers.getlist("Set-Cookie")[-1]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    after = client.get_cookie("session")
    assert before is not None and after is not None and before.value != after.value


def test_session_cookie_is_secure_under_https(client, tenant, admin):
    token = csrf_token(client)
    response = client.post(
        "/login",
        data={
            "csrf_token": token,
            "workspace": tenant.id,
            "email": admin.email,
            "password": PASSWORD,
        },
        base_url="https://localhost",
        headers={"Referer": "https://localhost/login"},
    )
    assert response.status_code == 302
    assert "Secure" in response.headers.getlist("Set-Cookie")[-1]


def test_wrong_password_is_refused_with_one_message_and_audited(app, client, tenant, admin):
    response = sign_in(client, tenant.id, admin.email, password="wrong password!")
    html = response.get_data(as_text=True)
    assert response.status_code == 401
    assert "do not match an active account" in html
    assert f'value="{admin.email}"' in html  # what was typed is kept
    assert "wrong password!" not in html
    assert audit_actions(app, tenant.id)[-1] == "user.login_failed"


def test_unknown_email_is_audited_under_the_tenant_without_the_password(app, client, tenant):
    sign_in(client, tenant.id, "nobody@acme.example", password="guessing-123")
    from extensions import db
    from models import AuditEntry

    with app.app_context():
        entry = db.session.query(AuditEntry).filter_by(action="user.login_failed").one()
        assert entry.details["email"] == "nobody@acme.example"
        assert entry.details["knownUser"] is False
        assert "guessing-123" not in str(entry.details)


def test_login_is_throttled_per_account_after_five_failures(app, client, tenant, admin):
    for _ in range(5):
        assert sign_in(client, tenant.id, admin.email, password="nope-nope-1").status_code == 401
    response = sign_in(client, tenant.id, admin.email)  # even the right password waits
    assert response.status_code == 429
    assert "Too many failed sign-in attempts for this account" in response.get_data(True)
    assert "Try again in 15 minutes" in response.get_data(True)
    assert audit_actions(app, tenant.id)[-1] == "user.login_failed"
    # Another account from the same address is not locked by this one's failures.
    other = sign_in(client, tenant.id, "other@acme.example", password="nope-nope-1")
    assert other.status_code == 401


def test_login_is_throttled_per_address_across_accounts(app, client, tenant):
    from services import login_throttle

    for n in range(19):  # as if 19 different accounts had been guessed from this address
        with app.app_context():
            login_throttle.record_failure(tenant.id, f"guess{n}@acme.example", "127.0.0.1")
    assert sign_in(client, tenant.id, "twenty@acme.example", "nope-nope-1").status_code == 401
    response = sign_in(client, tenant.id, "fresh@acme.example", password="nope-nope-1")
    assert response.status_code == 429
    assert "from your network" in response.get_data(as_text=True)


def test_deactivated_user_cannot_sign_in(client, tenant, create_user):
    from extensions import db
    from models import User

    user = create_user(tenant, "admin", email="gone@acme.example")
    with client.application.app_context():
        db.session.get(User, user.id).is_active_user = False
        db.session.commit()
    assert sign_in(client, tenant.id, user.email).status_code == 401


def test_logout_ends_the_session_and_is_audited(app, admin_client, tenant):
    token = csrf_token(admin_client, "/")
    response = admin_client.post("/logout", data={"csrf_token": token})
    assert response.status_code == 302
    assert admin_client.get("/keys").status_code == 302  # back to the login page
    assert audit_actions(app, tenant.id)[-1] == "user.logout"


def test_open_redirects_after_login_are_ignored(client, tenant, admin):
    response = sign_in(client, tenant.id, admin.email, next="//evil.example/")
    assert response.headers["Location"] == "/"


def test_next_path_is_honoured(client, tenant, admin):
    response = sign_in(client, tenant.id, admin.email, next="/audit")
    assert response.headers["Location"] == "/audit"


def test_support_staff_sign_in_without_a_workspace_and_land_in_the_console(client, support_staff):
    response = sign_in(client, None, "help@operator.example")
    assert response.status_code == 302
    assert response.headers["Location"] == "/support"
    assert client.get("/").headers["Location"] == "/support"


def test_sign_in_still_works_when_the_throttle_store_is_down(make_app, tenant, admin, caplog):
    # Port 1 on loopback refuses connections: a real unreachable Redis, not a mock.
    app = make_app(REDIS_URL="redis://127.0.0.1:1/0")
    client = app.test_client()
    assert sign_in(client, tenant.id, admin.email, password="wrong password!").status_code == 401
    assert sign_in(client, tenant.id, admin.email).status_code == 302
    assert "login throttle unavailable, not enforced" in caplog.text

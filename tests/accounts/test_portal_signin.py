"""Sign-in, sign-out, session safety, throttling and their audit entries."""

from __future__ import annotations

import re

from tests.helpers import PASSWORD, audit_actions, csrf_token, sign_in


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


def test_failures_slow_down_that_account_from_that_address_only(app, client, tenant, admin):
    """Five wrong passwords from one address: that address waits for this account, even with
    the right password; the owner signing in from elsewhere is not locked out."""
    for _ in range(5):
        assert sign_in(client, tenant.id, admin.email, password="nope-nope-1").status_code == 401
    response = sign_in(client, tenant.id, admin.email)
    assert response.status_code == 429
    assert "Too many failed sign-in attempts for this account" in response.get_data(True)
    # The pair's minute started with the first failure: "1 minute", or "5x seconds" when slow.
    assert re.search(r"Try again in (1 minute|[1-5]?[0-9] seconds)\b", response.get_data(True))
    assert audit_actions(app, tenant.id)[-1] == "user.login_failed"
    # Another account from the same address is not slowed by this one's failures.
    other = sign_in(client, tenant.id, "other@acme.example", password="nope-nope-1")
    assert other.status_code == 401
    # The owner, from their own address, signs in at once.
    elsewhere = app.test_client()
    elsewhere.environ_base["REMOTE_ADDR"] = "198.51.100.7"
    assert sign_in(elsewhere, tenant.id, admin.email).status_code == 302


def test_the_wait_grows_with_the_failures(app, tenant):
    from services.accounts import login_throttle

    def wait_after(failures: int, email: str) -> int:
        with app.app_context():
            for _ in range(failures):
                login_throttle.record_failure(tenant.id, email, "192.0.2.1")
            return login_throttle.refusal(tenant.id, email, "192.0.2.1").retry_after

    assert 50 <= wait_after(5, "a@acme.example") <= 60
    assert 14 * 60 <= wait_after(10, "b@acme.example") <= 15 * 60
    assert 59 * 60 <= wait_after(20, "c@acme.example") <= 60 * 60


def test_one_address_guessing_many_accounts_meets_a_ceiling(make_app, tenant):
    from services.accounts import login_throttle

    app = make_app(DMS_SIGN_IN_FAILURES_PER_IP=30)
    with app.app_context():
        for n in range(29):  # as if 29 different accounts had been guessed from this address
            login_throttle.record_failure(tenant.id, f"guess{n}@acme.example", "127.0.0.1")
    client = app.test_client()
    assert sign_in(client, tenant.id, "thirty@acme.example", "nope-nope-1").status_code == 401
    response = sign_in(client, tenant.id, "fresh@acme.example", password="nope-nope-1")
    assert response.status_code == 429
    assert "from your network" in response.get_data(as_text=True)


def test_the_default_ceiling_leaves_room_for_an_office(app, tenant):
    """Forty people behind one NAT address, each mistyping three times, are not refused."""
    from services.accounts import login_throttle

    with app.app_context():
        for person in range(40):
            for _ in range(3):
                login_throttle.record_failure(tenant.id, f"p{person}@acme.example", "10.9.8.7")
        assert login_throttle.refusal(tenant.id, "p41@acme.example", "10.9.8.7") is None


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


# --- sessions end on the server ------------------------------------------------------------


def test_a_copied_cookie_is_worthless_after_sign_out(app, admin_client, tenant):
    """The cookie is signed, not stored: without a server-side session, a copy taken before
    sign-out would keep working. It must not."""
    copied = admin_client.get_cookie("session").value
    token = csrf_token(admin_client, "/")
    assert admin_client.post("/logout", data={"csrf_token": token}).status_code == 302

    thief = app.test_client()
    thief.set_cookie("session", copied)
    assert thief.get("/keys").status_code == 302


def test_a_password_change_ends_every_session_of_the_user(app, admin_client, tenant, admin):
    from extensions import db
    from models import User
    from services.accounts import users
    from services.core.actors import Actor

    assert admin_client.get("/keys").status_code == 200
    with app.app_context():
        users.set_password(db.session.get(User, admin.id), "a new long password", Actor.cli())
        db.session.commit()
    assert admin_client.get("/keys").status_code == 302


def test_an_admin_signs_someone_out_everywhere(app, admin_client, tenant, create_user):
    other = create_user(tenant, "admin", email="laptop-lost@acme.example")
    browser, phone = app.test_client(), app.test_client()
    for client in (browser, phone):
        assert sign_in(client, tenant.id, other.email).status_code == 302
        assert client.get("/keys").status_code == 200

    token = csrf_token(admin_client, "/users")
    response = admin_client.post(f"/users/{other.id}/sessions/revoke", data={"csrf_token": token})

    assert response.status_code == 302
    assert browser.get("/keys").status_code == 302
    assert phone.get("/keys").status_code == 302
    assert admin_client.get("/keys").status_code == 200  # the admin's own session is untouched
    assert audit_actions(app, tenant.id)[-1] == "user.signed_out_everywhere"


def test_session_cookie_is_secure_behind_a_trusted_tls_proxy(make_app, tenant, admin):
    app = make_app(DMS_TRUSTED_PROXY_COUNT=1)
    client = app.test_client()
    proxied = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9"}
    token = csrf_token(client)
    response = client.post(
        "/login",
        data={"csrf_token": token, "workspace": tenant.id, "email": admin.email,
              "password": PASSWORD},
        headers={**proxied, "Referer": "https://localhost/login"},
    )  # fmt: skip
    assert response.status_code == 302
    assert "Secure" in response.headers.getlist("Set-Cookie")[-1]
    assert "Strict-Transport-Security" in response.headers

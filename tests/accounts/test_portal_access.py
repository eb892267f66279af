"""Who reaches which page, CSRF refusals, the security headers and tenant isolation."""

from __future__ import annotations

import pytest

from tests.helpers import csrf_token, post, sign_in

READ_PAGES = ["/", "/keys", "/audit", "/audit/export.csv"]
ADMIN_PAGES = ["/keys/new", "/users"]


@pytest.fixture
def key(tenant, create_key):
    return create_key(tenant)[0]


def test_anonymous_visitors_are_sent_to_sign_in(client, key):
    for path in [*READ_PAGES, *ADMIN_PAGES, f"/keys/{key.id}", "/support"]:
        response = client.get(path)
        assert response.status_code == 302, path
        assert response.headers["Location"].startswith("/login"), path


def test_htmx_requests_without_a_session_are_told_to_redirect(client, key):
    response = client.post(f"/keys/{key.id}/revoke", headers={"HX-Request": "true"})
    # CSRF runs first for anonymous posts; with a token the login redirect header comes back.
    assert response.status_code == 400
    token = csrf_token(client)
    response = client.post(
        f"/keys/{key.id}/revoke", headers={"HX-Request": "true", "X-CSRFToken": token}
    )
    assert response.status_code == 401
    assert response.headers["HX-Redirect"] == "/login"


def test_admin_reaches_every_tenant_page(admin_client, key):
    for path in [*READ_PAGES, *ADMIN_PAGES, f"/keys/{key.id}", f"/keys/{key.id}/rotate"]:
        assert admin_client.get(path).status_code == 200, path
    assert admin_client.get("/support").status_code == 403


def test_auditor_reads_keys_and_audit_log_but_changes_nothing(client, tenant, auditor, key):
    sign_in(client, tenant.id, auditor.email)
    for path in [*READ_PAGES, f"/keys/{key.id}"]:
        assert client.get(path).status_code == 200, path
    keys_page = client.get("/keys").get_data(as_text=True)
    assert "Create API key" not in keys_page and "Revoke" not in keys_page
    for path in [*ADMIN_PAGES, f"/keys/{key.id}/rotate", f"/keys/{key.id}/revoke"]:
        assert client.get(path).status_code == 403, path
    for path in ["/keys", f"/keys/{key.id}/revoke", f"/keys/{key.id}/rotate", "/users"]:
        assert post(client, path, {"name": "x", "scopes": ["documents:read"]}).status_code == 403


def test_member_gets_the_403_page_for_key_administration(client, tenant, member, key):
    sign_in(client, tenant.id, member.email)
    home = client.get("/")
    assert home.status_code == 200
    assert "Nothing to administer here" in home.get_data(as_text=True)
    for path in [*READ_PAGES[1:], *ADMIN_PAGES, f"/keys/{key.id}"]:
        response = client.get(path)
        assert response.status_code == 403, path
        assert "Not allowed" in response.get_data(as_text=True)
    assert 'href="/keys"' not in home.get_data(as_text=True)  # not in the navigation either


def test_support_staff_reach_only_the_console(client, support_staff, tenant, key):
    sign_in(client, None, "help@operator.example")
    assert client.get("/support").status_code == 200
    assert client.get(f"/support/tenants/{tenant.id}/audit").status_code == 200
    for path in [*READ_PAGES[1:], *ADMIN_PAGES, f"/keys/{key.id}"]:
        assert client.get(path).status_code == 403, path
    assert post(client, "/keys", {"name": "x", "scopes": ["documents:read"]}).status_code == 403


def test_tenant_users_cannot_open_the_support_console(client, tenant, admin):
    sign_in(client, tenant.id, admin.email)
    assert client.get(f"/support/tenants/{tenant.id}/audit").status_code == 403


def test_forms_without_a_csrf_token_are_refused(admin_client, key):
    for path, data in [
        ("/keys", {"name": "x", "scopes": "documents:read"}),
        (f"/keys/{key.id}/revoke", {}),
        (f"/keys/{key.id}/rotate", {}),
        ("/users", {"email": "a@b.example", "role": "member", "password": "long enough 1"}),
        ("/logout", {}),
    ]:
        response = admin_client.post(path, data=data)
        assert response.status_code == 400, path
        assert "This form has expired" in response.get_data(as_text=True)
    assert admin_client.get(f"/keys/{key.id}").status_code == 200  # still active, still in


def test_htmx_requests_with_a_wrong_token_are_refused(admin_client, key):
    response = admin_client.post(
        f"/keys/{key.id}/revoke", headers={"HX-Request": "true", "X-CSRFToken": "forged"}
    )
    assert response.status_code == 400


def test_login_form_itself_needs_the_token(client, tenant, admin):
    response = client.post(
        "/login",
        data={"workspace": tenant.id, "email": admin.email, "password": "correct horse battery"},
    )
    assert response.status_code == 400


def test_security_headers_on_portal_pages_and_the_api(client, admin_client):
    page = admin_client.get("/keys")
    csp = page.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert page.headers["X-Content-Type-Options"] == "nosniff"
    assert page.headers["X-Frame-Options"] == "DENY"
    assert page.headers["Referrer-Policy"] == "strict-origin-when-cross-origin"
    api = client.get("/api/v1/documents")
    assert api.headers["X-Content-Type-Options"] == "nosniff"


def test_pages_carry_no_inline_script_and_use_the_vendored_htmx(admin_client, key):
    for path in ["/", "/keys", "/audit", "/users", f"/keys/{key.id}", "/keys/new"]:
        html = admin_client.get(path).get_data(as_text=True)
        assert "<script>" not in html and " on" + "click=" not in html, path
        assert 'src="/static/vendor/htmx/htmx.min.js"' in html, path
        assert '"allowEval": false' in html, path
        assert "hx-on" not in html, path
        assert "http://" not in html.replace("http://localhost", ""), path


def test_a_view_can_override_the_csp(make_app):
    from portal.security import content_security_policy

    app = make_app()
    policy = "default-src 'self'; style-src 'self' 'unsafe-inline'"

    @app.get("/csp-probe")
    @content_security_policy(policy)
    def probe():
        return "ok"

    assert app.test_client().get("/csp-probe").headers["Content-Security-Policy"] == policy


def test_a_session_from_one_tenants_host_is_not_honoured_on_anothers(
    make_app, tenant, other_tenant, admin
):
    app = make_app(DMS_BASE_DOMAIN="dms.example")
    client = app.test_client()
    token_page = client.get("/login", base_url="http://acme.dms.example").get_data(True)
    token = token_page.split('name="csrf-token" content="')[1].split('"')[0]
    signed = client.post(
        "/login",
        data={"csrf_token": token, "email": admin.email, "password": "correct horse battery"},
        base_url="http://acme.dms.example",
    )
    assert signed.status_code == 302
    assert client.get("/keys", base_url="http://acme.dms.example").status_code == 200
    # Browsers keep the cookie on its host; replay it on another tenant's host anyway.
    stolen = client.get_cookie("session", domain="acme.dms.example")
    client.set_cookie("session", stolen.value, domain="globex.dms.example")
    assert client.get("/keys", base_url="http://globex.dms.example").status_code == 403


def test_deactivating_a_user_ends_their_open_session(app, client, tenant, admin, create_user):
    from extensions import db
    from models import User

    other = create_user(tenant, "admin", email="second@acme.example")
    sign_in(client, tenant.id, other.email)
    assert client.get("/keys").status_code == 200
    with app.app_context():
        db.session.get(User, other.id).is_active_user = False
        db.session.commit()
    assert client.get("/keys").status_code == 302

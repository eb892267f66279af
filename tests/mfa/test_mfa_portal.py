"""Second factors in the portal: setting TOTP up from the QR page, the code step of the
sign-in (a TOTP code or a recovery code), the admins' requireMfa and the gate that holds a
person without a second factor on the set-up pages."""

from __future__ import annotations

import re

import clock
from extensions import db
from models import Passkey
from tests.helpers import audit_actions, csrf_token, post, sign_in
from tests.mfa.conftest import code_at, step_on

SECRET_RE = re.compile(r'id="totp-secret">([A-Z2-7]+)<')


def _enable_in_portal(client) -> tuple[str, str]:
    """Turn TOTP on from the Two-factor page: (secret, the recovery codes' page)."""
    assert post(client, "/mfa/totp/start").status_code == 302
    page = client.get("/mfa").get_data(as_text=True)
    assert "<svg" in page and 'role="img"' in page  # the QR code, inline
    secret = SECRET_RE.search(page).group(1)
    done = post(client, "/mfa/totp/confirm", {"code": code_at(secret, clock.now())})
    assert done.status_code == 200, done.get_data(as_text=True)
    assert done.headers["Cache-Control"].startswith("no-store")
    step_on()
    return secret, done.get_data(as_text=True)


def _sign_out(client) -> None:
    post(client, "/logout")


def _code_step(client, code: str, method: str | None = None):
    data = {"csrf_token": csrf_token(client, "/login/mfa"), "code": code}
    if method:
        data["method"] = method
    return client.post("/login/mfa", data=data)


def test_enable_from_the_portal_then_sign_in_with_the_code(app, client, tenant, member, frozen):
    assert sign_in(client, tenant.id, member.email).status_code == 302
    secret, shown = _enable_in_portal(client)
    codes = re.findall(r"<code>([a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4})</code>", shown)
    assert len(codes) == 10
    assert "mfa.totp_enabled" in audit_actions(app, tenant.id)
    _sign_out(client)

    after_password = sign_in(client, tenant.id, member.email)
    assert after_password.status_code == 302
    assert after_password.headers["Location"].endswith("/login/mfa")
    assert client.get("/documents").status_code == 302  # not signed in yet

    wrong = _code_step(client, "000000")
    assert wrong.status_code == 401 and "not right" in wrong.get_data(as_text=True)
    right = _code_step(client, code_at(secret, clock.now()))
    assert right.status_code == 302
    assert client.get("/mfa").status_code == 200


def test_a_recovery_code_signs_in_from_the_portal(app, client, tenant, member, frozen):
    sign_in(client, tenant.id, member.email)
    _, shown = _enable_in_portal(client)
    code = re.findall(r"<code>([a-z2-9-]{14})</code>", shown)[0]
    _sign_out(client)
    sign_in(client, tenant.id, member.email)
    assert _code_step(client, code, "recovery").status_code == 302
    assert "mfa.recovery_code_used" in audit_actions(app, tenant.id)


def test_the_code_step_needs_the_password_step(client, tenant):
    response = client.get("/login/mfa")
    assert response.status_code == 302 and response.headers["Location"].endswith("/login")


def test_turning_totp_off_from_the_portal(app, client, tenant, member, frozen):
    sign_in(client, tenant.id, member.email)
    secret, _ = _enable_in_portal(client)
    assert post(client, "/mfa/totp/disable", {"code": "000000"}).status_code == 422
    off = post(client, "/mfa/totp/disable", {"code": code_at(secret, clock.now())})
    assert off.status_code == 302
    _sign_out(client)
    assert sign_in(client, tenant.id, member.email).headers["Location"].endswith("/")


def test_require_mfa_holds_a_person_on_the_set_up_page(app, client, tenant, admin, member,
                                                       frozen):  # fmt: skip
    sign_in(client, tenant.id, admin.email)
    assert post(client, "/mfa/settings", {"require_mfa": "on"}).status_code == 302
    assert "mfa.required" in audit_actions(app, tenant.id)
    _sign_out(client)

    landed = sign_in(client, tenant.id, member.email)
    assert landed.headers["Location"].endswith("/mfa")
    held = client.get("/documents")
    assert held.status_code == 302 and held.headers["Location"].endswith("/mfa")
    assert client.get("/passkeys").status_code == 200  # a passkey would do as well
    polled = client.get("/notifications/bell", headers={"HX-Request": "true"})
    assert polled.status_code == 200  # the bell's refresh does not reload the set-up page
    htmx = client.get("/documents", headers={"HX-Request": "true"})
    assert htmx.status_code == 403 and htmx.headers["HX-Redirect"].endswith("/mfa")

    _enable_in_portal(client)
    assert client.get("/documents").status_code == 200


def test_a_passkey_counts_as_the_second_factor(app, client, tenant, admin, member, frozen):
    sign_in(client, tenant.id, admin.email)
    post(client, "/mfa/settings", {"require_mfa": "on"})
    _sign_out(client)
    with app.app_context():
        db.session.add(
            Passkey(
                tenant_id=tenant.id,
                user_id=member.id,
                credential_id="cred-1",
                public_key=b"k",
                name="Laptop",
            )
        )
        db.session.commit()
    landed = sign_in(client, tenant.id, member.email)
    assert landed.headers["Location"].endswith("/")
    assert client.get("/documents").status_code == 200


def test_only_admins_change_the_setting(client, tenant, member):
    sign_in(client, tenant.id, member.email)
    assert client.get("/mfa/settings").status_code == 403
    assert post(client, "/mfa/settings", {"require_mfa": "on"}).status_code == 403


def test_the_settings_form_needs_csrf(client, tenant, admin):
    sign_in(client, tenant.id, admin.email)
    assert client.post("/mfa/settings", data={"require_mfa": "on"}).status_code == 400


def test_an_admin_resets_someones_totp(app, client, tenant, admin, member, enable_totp):
    enable_totp(tenant, member)
    sign_in(client, tenant.id, admin.email)
    assert post(client, f"/users/{member.id}/mfa/reset").status_code == 302
    assert "mfa.totp_reset" in audit_actions(app, tenant.id)
    post(client, "/logout")
    landed = sign_in(client, tenant.id, member.email)
    assert not landed.headers["Location"].endswith("/login/mfa")  # the password alone again


def test_resetting_another_tenants_person_is_404(client, tenant, other_tenant, admin,
                                                 create_user):  # fmt: skip
    theirs = create_user(other_tenant, "member", email="m@globex.example")
    sign_in(client, tenant.id, admin.email)
    assert post(client, f"/users/{theirs.id}/mfa/reset").status_code == 404


def test_a_member_cannot_reset_anyones_totp(client, tenant, admin, member):
    sign_in(client, tenant.id, member.email)
    assert post(client, f"/users/{admin.id}/mfa/reset").status_code == 403


def test_guessing_codes_in_the_portal_is_throttled(client, tenant, member, enable_totp):
    secret, _ = enable_totp(tenant, member)
    sign_in(client, tenant.id, member.email)
    statuses = [_code_step(client, "000000").status_code for _ in range(5)]
    assert statuses == [401] * 5  # the fifth also spends the token
    sign_in(client, tenant.id, member.email)
    refused = _code_step(client, code_at(secret, clock.now()))
    assert refused.status_code == 429 and "Try again" in refused.get_data(as_text=True)

"""Second factors through the API (CONTRACT §10): set-up, confirmation and recovery codes,
the two-step login with MFA_REQUIRED and the mfaToken, replays, expiry, the throttle and the
tenant's requireMfa."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

import clock
from extensions import db
from models import RecoveryCode, TotpAuthenticator
from services.mfa import throttle
from tests.helpers import PASSWORD, audit_actions, bearer
from tests.mfa.conftest import code_at, step_on


def _login(client, tenant_id, email, password=PASSWORD, ip="203.0.113.5"):
    return client.post(
        "/api/v1/login",
        json={"email": email, "password": password},
        headers={"X-Tenant-Id": tenant_id},
        environ_base={"REMOTE_ADDR": ip},
    )


def _second(client, tenant_id, body, ip="203.0.113.5"):
    return client.post(
        "/api/v1/login/mfa",
        json=body,
        headers={"X-Tenant-Id": tenant_id},
        environ_base={"REMOTE_ADDR": ip},
    )


def _mfa_token(client, tenant_id, email, **kwargs) -> str:
    response = _login(client, tenant_id, email, **kwargs)
    assert response.status_code == 401, response.get_json()
    body = response.get_json()
    assert body["success"] is False and body["errors"][0]["code"] == "MFA_REQUIRED"
    return body["data"]["mfaToken"]


def test_status_setup_and_confirm_answer_the_contracts_shapes(app, client, tenant, member,
                                                               frozen):  # fmt: skip
    headers = bearer(app, tenant, member)
    status = client.get("/api/v1/me/mfa", headers=headers).get_json()["data"]
    assert status == {"totp": False, "passkeys": 0, "recoveryCodesLeft": 0}

    started = client.post("/api/v1/me/mfa/totp", headers=headers)
    assert started.headers["Cache-Control"].startswith("no-store")
    setup = started.get_json()["data"]
    assert set(setup) == {"secret", "otpauthUri"}
    assert setup["otpauthUri"].startswith("otpauth://totp/")
    assert f"secret={setup['secret']}" in setup["otpauthUri"]

    wrong = client.post("/api/v1/me/mfa/totp/confirm", json={"code": "000000"}, headers=headers)
    assert wrong.status_code == 422 and wrong.get_json()["errors"][0]["field"] == "code"

    confirmed = client.post(
        "/api/v1/me/mfa/totp/confirm",
        json={"code": code_at(setup["secret"], clock.now())},
        headers=headers,
    )
    assert confirmed.status_code == 200
    codes = confirmed.get_json()["data"]["recoveryCodes"]
    assert len(codes) == 10 and len(set(codes)) == 10
    status = client.get("/api/v1/me/mfa", headers=headers).get_json()["data"]
    assert status == {"totp": True, "passkeys": 0, "recoveryCodesLeft": 10}
    assert "mfa.totp_enabled" in audit_actions(app, tenant.id)

    again = client.post("/api/v1/me/mfa/totp", headers=headers)
    assert again.status_code == 409


def test_the_secret_is_encrypted_and_recovery_codes_hashed(app, tenant, member, enable_totp):
    secret, codes = enable_totp(tenant, member)
    with app.app_context():
        row = db.session.scalar(select(TotpAuthenticator))
        assert secret not in row.secret_encrypted
        digests = list(db.session.scalars(select(RecoveryCode.code_digest)))
    assert len(digests) == 10
    assert not {c.replace("-", "") for c in codes} & set(digests)


def test_an_api_key_has_no_second_factors(client, headers):
    response = client.get("/api/v1/me/mfa", headers=headers)
    assert response.status_code == 403
    assert response.get_json()["errors"][0]["code"] == "USER_CONTEXT_REQUIRED"


def test_login_with_totp_needs_the_second_step(app, client, tenant, member, enable_totp):
    secret, _ = enable_totp(tenant, member)
    token = _mfa_token(client, tenant.id, member.email)

    done = _second(client, tenant.id, {"mfaToken": token, "code": code_at(secret, clock.now())})
    assert done.status_code == 200, done.get_json()
    pair = done.get_json()["data"]
    me = client.get(
        "/api/v1/me",
        headers={"Authorization": f"Bearer {pair['access_token']}", "X-Tenant-Id": tenant.id},
    )
    assert me.get_json()["data"]["id"] == member.id
    # One sign-in entry, written at the second step, naming the factor.
    assert audit_actions(app, tenant.id).count("user.login") == 1


def test_a_login_without_totp_answers_tokens_at_once(client, tenant, member):
    assert _login(client, tenant.id, member.email).status_code == 200


def test_a_wrong_password_never_reaches_the_second_step(client, tenant, member, enable_totp):
    enable_totp(tenant, member)
    response = _login(client, tenant.id, member.email, "not the password")
    assert response.status_code == 401
    assert response.get_json()["errors"][0]["code"] == "INVALID_CREDENTIALS"
    assert "data" not in response.get_json()


def test_a_totp_code_is_not_accepted_twice(client, tenant, member, enable_totp):
    secret, _ = enable_totp(tenant, member)
    code = code_at(secret, clock.now())
    first = _mfa_token(client, tenant.id, member.email)
    assert _second(client, tenant.id, {"mfaToken": first, "code": code}).status_code == 200

    second = _mfa_token(client, tenant.id, member.email)
    replay = _second(client, tenant.id, {"mfaToken": second, "code": code})
    assert replay.status_code == 401
    assert replay.get_json()["errors"][0]["code"] == "INVALID_CREDENTIALS"
    # Nor the code of the step before, once a newer one was accepted.
    earlier = code_at(secret, clock.now() - timedelta(seconds=30))
    assert _second(client, tenant.id, {"mfaToken": second, "code": earlier}).status_code == 401

    step_on()
    fresh = _second(client, tenant.id, {"mfaToken": second, "code": code_at(secret, clock.now())})
    assert fresh.status_code == 200


def test_an_mfa_token_is_single_use(client, tenant, member, enable_totp):
    secret, _ = enable_totp(tenant, member)
    token = _mfa_token(client, tenant.id, member.email)
    first = _second(client, tenant.id, {"mfaToken": token, "code": code_at(secret, clock.now())})
    assert first.status_code == 200
    step_on()
    again = _second(client, tenant.id, {"mfaToken": token, "code": code_at(secret, clock.now())})
    assert again.status_code == 401
    assert again.get_json()["errors"][0]["code"] == "INVALID_TOKEN"


def test_an_mfa_token_expires_after_five_minutes(client, tenant, member, enable_totp):
    secret, _ = enable_totp(tenant, member)
    token = _mfa_token(client, tenant.id, member.email)
    step_on(5 * 60 + 1)
    late = _second(client, tenant.id, {"mfaToken": token, "code": code_at(secret, clock.now())})
    assert late.status_code == 401
    assert late.get_json()["errors"][0]["code"] == "INVALID_TOKEN"


def test_an_mfa_token_is_bound_to_its_tenant(client, tenant, other_tenant, member, enable_totp):
    secret, _ = enable_totp(tenant, member)
    token = _mfa_token(client, tenant.id, member.email)
    elsewhere = _second(
        client, other_tenant.id, {"mfaToken": token, "code": code_at(secret, clock.now())}
    )
    assert elsewhere.status_code == 401
    assert elsewhere.get_json()["errors"][0]["code"] == "INVALID_TOKEN"


def test_an_mfa_token_is_bound_to_its_person(client, tenant, member, admin, enable_totp):
    member_secret, _ = enable_totp(tenant, member)
    step_on()
    admin_secret, _ = enable_totp(tenant, admin)
    admins_code = code_at(admin_secret, clock.now())
    if admins_code == code_at(member_secret, clock.now()):  # one chance in a million
        step_on()
        admins_code = code_at(admin_secret, clock.now())
    token = _mfa_token(client, tenant.id, member.email)
    # The admin's right code does not sign the member in.
    other = _second(client, tenant.id, {"mfaToken": token, "code": admins_code})
    assert other.status_code == 401
    assert other.get_json()["errors"][0]["code"] == "INVALID_CREDENTIALS"


def test_a_recovery_code_signs_in_once(app, client, tenant, member, enable_totp):
    _, codes = enable_totp(tenant, member)
    token = _mfa_token(client, tenant.id, member.email)
    used = _second(client, tenant.id, {"mfaToken": token, "recoveryCode": codes[0].upper()})
    assert used.status_code == 200, used.get_json()
    assert "mfa.recovery_code_used" in audit_actions(app, tenant.id)

    token = _mfa_token(client, tenant.id, member.email)
    again = _second(client, tenant.id, {"mfaToken": token, "recoveryCode": codes[0]})
    assert again.status_code == 401
    headers = bearer(app, tenant, member)
    left = client.get("/api/v1/me/mfa", headers=headers).get_json()["data"]
    assert left["recoveryCodesLeft"] == 9


def test_the_body_takes_exactly_one_factor(client, tenant, member, enable_totp):
    enable_totp(tenant, member)
    token = _mfa_token(client, tenant.id, member.email)
    both = _second(client, tenant.id, {"mfaToken": token, "code": "123456",
                                       "recoveryCode": "abcd-efgh-jkmn"})  # fmt: skip
    neither = _second(client, tenant.id, {"mfaToken": token})
    assert both.status_code == neither.status_code == 422


def test_guessing_codes_is_throttled_per_person(client, tenant, member, enable_totp):
    secret, _ = enable_totp(tenant, member)
    statuses = []
    for _ in range(3):  # a token takes five wrong codes; the person's limit spans tokens
        token = _mfa_token(client, tenant.id, member.email)
        for guess in ("000000", "111111"):
            statuses.append(_second(client, tenant.id, {"mfaToken": token, "code": guess}))
    token = _mfa_token(client, tenant.id, member.email)
    refused = _second(client, tenant.id, {"mfaToken": token, "code": code_at(secret, clock.now())})
    assert [r.status_code for r in statuses[:5]] == [401] * 5
    assert statuses[5].status_code == 429
    assert refused.status_code == 429  # even the right code, until the window passes
    assert int(refused.headers["Retry-After"]) > 0


def test_guessing_codes_is_throttled_per_address(app, client, tenant, create_user, frozen):
    people = [create_user(tenant, "member", email=f"p{i}@acme.example") for i in range(8)]
    with app.app_context():
        for person in people:
            for _ in range(4):  # under each person's own limit
                throttle.record_failure(person.id, "198.51.100.9")
        assert throttle.retry_after("usr_someone_else", "198.51.100.9") is not None
        assert throttle.retry_after("usr_someone_else", "198.51.100.10") is None


def test_five_wrong_codes_burn_the_token(client, tenant, member, enable_totp):
    secret, _ = enable_totp(tenant, member)
    token = _mfa_token(client, tenant.id, member.email)
    for _ in range(5):
        _second(client, tenant.id, {"mfaToken": token, "code": "000000"}, ip="203.0.113.77")
    burnt = _second(client, tenant.id, {"mfaToken": token, "code": code_at(secret, clock.now())},
                    ip="203.0.113.78")  # fmt: skip
    assert burnt.status_code == 401  # from another address: the token itself is spent
    assert burnt.get_json()["errors"][0]["code"] == "INVALID_TOKEN"


def test_turning_totp_off_needs_a_code(app, client, tenant, member, enable_totp):
    secret, _ = enable_totp(tenant, member)
    headers = bearer(app, tenant, member)
    wrong = client.delete("/api/v1/me/mfa/totp", json={"code": "000000"}, headers=headers)
    assert wrong.status_code == 422
    off = client.delete(
        "/api/v1/me/mfa/totp", json={"code": code_at(secret, clock.now())}, headers=headers
    )
    assert off.status_code == 200
    assert off.get_json()["data"] == {"totp": False, "passkeys": 0, "recoveryCodesLeft": 0}
    assert "mfa.totp_disabled" in audit_actions(app, tenant.id)
    assert _login(client, tenant.id, member.email).status_code == 200


def test_require_mfa_is_an_admins_setting(app, client, tenant, admin, member):
    member_headers = bearer(app, tenant, member)
    admin_headers = bearer(app, tenant, admin)
    assert client.get("/api/v1/mfa-settings", headers=member_headers).get_json()["data"] == {
        "requireMfa": False
    }
    refused = client.patch("/api/v1/mfa-settings", json={"requireMfa": True},
                           headers=member_headers)  # fmt: skip
    assert refused.status_code == 403
    changed = client.patch("/api/v1/mfa-settings", json={"requireMfa": True},
                           headers=admin_headers)  # fmt: skip
    assert changed.get_json()["data"] == {"requireMfa": True}
    assert "mfa.required" in audit_actions(app, tenant.id)
    null = client.patch("/api/v1/mfa-settings", json={"requireMfa": None}, headers=admin_headers)
    assert null.status_code == 422


def test_oversized_bodies_are_refused(app, client, tenant, member, enable_totp):
    enable_totp(tenant, member)
    headers = bearer(app, tenant, member)
    long = client.delete("/api/v1/me/mfa/totp", json={"code": "1" * 33}, headers=headers)
    assert long.status_code == 422
    token = _mfa_token(client, tenant.id, member.email)
    assert _second(client, tenant.id, {"mfaToken": "x" * 201, "code": "123456"}).status_code == 422
    assert _second(client, tenant.id, {"mfaToken": token, "code": {"a": 1}}).status_code == 422


def test_an_unreadable_secret_refuses_codes_instead_of_failing(app, client, tenant, member,
                                                               enable_totp):  # fmt: skip
    secret, _ = enable_totp(tenant, member)
    with app.app_context():
        row = db.session.scalar(select(TotpAuthenticator))
        row.secret_encrypted = "gAAAAAB-not-a-fernet-token"
        db.session.commit()
    token = _mfa_token(client, tenant.id, member.email)
    answer = _second(client, tenant.id, {"mfaToken": token, "code": code_at(secret, clock.now())})
    assert answer.status_code == 401

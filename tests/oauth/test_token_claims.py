"""What an access token's claims must say to be accepted: our issuer (the discovery document's
`issuer`), our audience when it names one, an `iat` not ahead of our clock, a lifetime no
longer than ours, and a refresh-token family that exists and is its person's. The bad tokens
are forged from a real one, re-signed with the real signing key."""

from __future__ import annotations

import pytest
from joserfc import jwt

import clock
from tests.helpers import PASSWORD, auth_headers

DAY = 86400


def login(client, tenant_id: str, email: str, host: str = "localhost") -> str:
    response = client.post(
        "/api/v1/login",
        json={"email": email, "password": PASSWORD},
        headers={"X-Tenant-Id": tenant_id},
        base_url=f"http://{host}",
    )
    assert response.status_code == 200, response.get_json()
    return response.get_json()["data"]["access_token"]


def claims_of(app, token: str) -> dict:
    from services.accounts.tokens import _key

    return dict(jwt.decode(token, _key(app.config["SECRET_KEY"])).claims)


def forge(app, token: str, **changes) -> str:
    """`token` with its claims changed (None removes one), signed with our real key."""
    from services.accounts.tokens import _key

    claims = {**claims_of(app, token), **changes}
    claims = {name: value for name, value in claims.items() if value is not None}
    return jwt.encode({"alg": "HS256", "typ": "at+jwt"}, claims, _key(app.config["SECRET_KEY"]))


def call(client, tenant_id: str, token: str, host: str = "localhost"):
    return client.get(
        "/api/v1/me", headers=auth_headers(token, tenant_id), base_url=f"http://{host}"
    )


def refused(response) -> bool:
    return response.status_code == 401 and response.get_json()["errors"][0]["code"] in (
        "INVALID_TOKEN"
    )


@pytest.fixture
def member(create_user, tenant):
    return create_user(tenant, "member", email="mo@acme.example")


@pytest.fixture
def token(client, tenant, member) -> str:
    return login(client, tenant.id, member.email)


def test_a_real_token_names_the_discovery_issuer_as_iss_and_aud(app, client, tenant, token):
    issuer = client.get("/.well-known/oauth-authorization-server").get_json()["issuer"]
    assert issuer == "http://localhost"
    claims = claims_of(app, token)
    assert claims["iss"] == issuer and claims["aud"] == issuer
    assert claims["exp"] - claims["iat"] == 3600
    assert call(client, tenant.id, token).status_code == 200


def test_a_foreign_audience_is_refused(app, client, tenant, token):
    assert refused(call(client, tenant.id, forge(app, token, aud="https://other.example")))
    assert refused(call(client, tenant.id, forge(app, token, aud=["https://other.example"])))
    ours = ["https://other.example", "http://localhost"]
    assert call(client, tenant.id, forge(app, token, aud=ours)).status_code == 200
    assert call(client, tenant.id, forge(app, token, aud=None)).status_code == 200


def test_an_iat_in_the_future_is_refused_beyond_a_small_skew(app, client, tenant, token):
    now = int(clock.now().timestamp())
    ahead = forge(app, token, iat=now + 3600, exp=now + 3600 + 600)
    assert refused(call(client, tenant.id, ahead))
    skewed = forge(app, token, iat=now + 20, exp=now + 20 + 3600)
    assert call(client, tenant.id, skewed).status_code == 200
    assert refused(call(client, tenant.id, forge(app, token, iat=None)))


def test_a_lifetime_over_an_hour_is_refused(app, client, tenant, token):
    now = int(clock.now().timestamp())
    assert refused(call(client, tenant.id, forge(app, token, exp=now + 10 * 365 * DAY)))
    assert refused(call(client, tenant.id, forge(app, token, iat=now - 60, exp=now + 3600)))


def test_a_family_that_does_not_exist_is_refused(app, client, tenant, token):
    assert refused(call(client, tenant.id, forge(app, token, fam="fam_01nothere000000000000000")))
    assert refused(call(client, tenant.id, forge(app, token, fam=None)))


def test_another_persons_family_is_refused(app, client, tenant, token, create_user):
    other = create_user(tenant, "member", email="ola@acme.example")
    theirs = claims_of(app, login(client, tenant.id, other.email))["fam"]
    assert refused(call(client, tenant.id, forge(app, token, fam=theirs)))


def test_a_foreign_issuer_is_refused(app, client, tenant, token):
    assert refused(call(client, tenant.id, forge(app, token, iss="dms")))
    assert refused(call(client, tenant.id, forge(app, token, iss="https://other.example")))


def test_without_dms_issuer_a_token_is_valid_at_the_host_that_issued_it(
    app, client, tenant, member
):
    token = login(client, tenant.id, member.email, host="one.example")
    assert claims_of(app, token)["iss"] == "http://one.example"
    assert call(client, tenant.id, token, host="one.example").status_code == 200
    assert refused(call(client, tenant.id, token, host="two.example"))


def test_dms_issuer_is_the_issuer_at_every_host(make_app, tenant, member):
    app = make_app(DMS_ISSUER="https://dms.example")
    client = app.test_client()
    meta = client.get("/.well-known/oauth-authorization-server", base_url="http://one.example")
    assert meta.get_json()["issuer"] == "https://dms.example"
    token = login(client, tenant.id, member.email, host="one.example")
    assert claims_of(app, token)["iss"] == "https://dms.example"
    assert call(client, tenant.id, token, host="two.example").status_code == 200

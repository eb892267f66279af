"""Tenant resolution, spec 5.3: each source alone, and every pair in conflict (higher wins)."""

from __future__ import annotations

import pytest

from tests.helpers import auth_headers, user_token

BASE = "dms.test"
ACME = "acme.dms.test"  # a token is valid at the host that issued it (docs/oauth.md)
GLOBEX = "docs.globex.example"


@pytest.fixture
def app_with_domain(make_app):
    return make_app(DMS_BASE_DOMAIN=BASE)


@pytest.fixture
def tenants(create_tenant):
    # globex claims a custom domain that is also acme's subdomain, for the conflict case.
    return {
        "acme": create_tenant("acme"),
        "globex": create_tenant("globex", domain="docs.globex.example"),
        "initech": create_tenant("initech", domain="acme.dms.test"),
    }


@pytest.fixture
def keys(tenants, create_key):
    return {slug: create_key(t)[1] for slug, t in tenants.items()}


@pytest.fixture
def token_for(app, tenants, create_user):
    def factory(slug: str, host: str = "localhost") -> str:
        user = create_user(tenants[slug], role="member")
        return user_token(app, user, ["documents:read"], host)

    return factory


def _get(app, host: str | None, headers: dict):
    base_url = f"http://{host}" if host else "http://localhost"
    return app.test_client().get("/api/v1/documents", base_url=base_url, headers=headers)


def _assert_resolved(response, expected_status: int, code: str | None = None):
    assert response.status_code == expected_status, response.get_json()
    if code:
        assert response.get_json()["errors"][0]["code"] == code


# --- each source alone -------------------------------------------------------------------


def test_subdomain_alone(app_with_domain, keys):
    response = _get(app_with_domain, "acme.dms.test", auth_headers(keys["acme"]))
    _assert_resolved(response, 200)


def test_custom_domain_alone(app_with_domain, keys):
    response = _get(app_with_domain, "docs.globex.example", auth_headers(keys["globex"]))
    _assert_resolved(response, 200)


def test_custom_domain_works_without_a_base_domain(app, keys):
    response = _get(app, "docs.globex.example", auth_headers(keys["globex"]))
    _assert_resolved(response, 200)


def test_header_alone(app, keys):
    response = _get(app, None, auth_headers(keys["acme"], "acme"))
    _assert_resolved(response, 200)


def test_token_claim_alone(app, token_for):
    response = _get(app, None, auth_headers(token_for("acme")))
    _assert_resolved(response, 200)


def test_no_source_is_tenant_required(app, keys):
    _assert_resolved(_get(app, None, auth_headers(keys["acme"])), 400, "TENANT_REQUIRED")


def test_unknown_subdomain_is_an_error_not_a_fall_through(app_with_domain, keys):
    response = _get(app_with_domain, "nobody.dms.test", auth_headers(keys["acme"], "acme"))
    _assert_resolved(response, 400, "TENANT_REQUIRED")
    assert "nobody" in response.get_json()["errors"][0]["message"]


def test_unknown_tenant_header(app, keys):
    _assert_resolved(_get(app, None, auth_headers(keys["acme"], "nope")), 400, "TENANT_REQUIRED")


def test_malformed_tenant_header(app, keys):
    response = _get(app, None, auth_headers(keys["acme"], "../etc/passwd"))
    _assert_resolved(response, 400, "TENANT_REQUIRED")


def test_reserved_and_deep_subdomains_are_not_tenants(app_with_domain, keys):
    for host in ("www.dms.test", "a.b.dms.test", "dms.test"):
        response = _get(app_with_domain, host, auth_headers(keys["acme"], "acme"))
        _assert_resolved(response, 200)  # fell through to the header


# --- every pair in conflict: the higher source decides ------------------------------------


def test_subdomain_beats_custom_domain(app_with_domain, keys):
    # acme.dms.test is acme's subdomain AND initech's custom domain.
    _assert_resolved(_get(app_with_domain, "acme.dms.test", auth_headers(keys["acme"])), 200)
    response = _get(app_with_domain, "acme.dms.test", auth_headers(keys["initech"]))
    _assert_resolved(response, 403, "TENANT_MISMATCH")


def test_subdomain_beats_header(app_with_domain, keys):
    ok = _get(app_with_domain, "acme.dms.test", auth_headers(keys["acme"], "globex"))
    _assert_resolved(ok, 200)
    clash = _get(app_with_domain, "acme.dms.test", auth_headers(keys["globex"], "globex"))
    _assert_resolved(clash, 403, "TENANT_MISMATCH")


def test_subdomain_beats_token_claim(app_with_domain, token_for):
    response = _get(app_with_domain, "acme.dms.test", auth_headers(token_for("globex", ACME)))
    _assert_resolved(response, 403, "TENANT_MISMATCH")
    _assert_resolved(_get(app_with_domain, ACME, auth_headers(token_for("acme", ACME))), 200)


def test_custom_domain_beats_header(app_with_domain, keys):
    ok = _get(app_with_domain, "docs.globex.example", auth_headers(keys["globex"], "acme"))
    _assert_resolved(ok, 200)
    clash = _get(app_with_domain, "docs.globex.example", auth_headers(keys["acme"], "acme"))
    _assert_resolved(clash, 403, "TENANT_MISMATCH")


def test_custom_domain_beats_token_claim(app_with_domain, token_for):
    response = _get(app_with_domain, GLOBEX, auth_headers(token_for("acme", GLOBEX)))
    _assert_resolved(response, 403, "TENANT_MISMATCH")
    ok = _get(app_with_domain, GLOBEX, auth_headers(token_for("globex", GLOBEX)))
    _assert_resolved(ok, 200)


def test_header_beats_token_claim(app, token_for):
    response = _get(app, None, auth_headers(token_for("acme"), "globex"))
    _assert_resolved(response, 403, "TENANT_MISMATCH")
    _assert_resolved(_get(app, None, auth_headers(token_for("acme"), "acme")), 200)

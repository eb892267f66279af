"""Fixtures for the rate-limit tests: tenants on each plan or with negotiated limits, and
apps whose windows are seconds long so that expiry can be watched without long sleeps."""

from __future__ import annotations

import pytest

from tests.helpers import auth_headers


@pytest.fixture
def limited_tenant(app, create_tenant, create_key):
    """(tenant, headers) for an enterprise tenant with `hourly`/`burst` set by the operator
    command, and a key with an optional own quota."""

    def factory(hourly: int, burst: int, slug: str = "ent", quota: int | None = None):
        tenant = create_tenant(slug, plan="enterprise")
        runner = app.test_cli_runner()
        result = runner.invoke(
            args=["tenants", "set-limits", slug, "--hourly", str(hourly), "--burst", str(burst)]
        )
        assert result.exit_code == 0, result.output
        _key, secret = create_key(tenant, hourly_quota=quota)
        return tenant, auth_headers(secret, tenant.id)

    return factory


@pytest.fixture
def short_windows(make_app):
    """An app whose "hour" lasts `hour` seconds and whose burst window `burst` seconds."""

    def factory(hour: int = 2, burst: int = 1, **overrides):
        return make_app(
            DMS_RATE_LIMIT_HOUR_SECONDS=hour, DMS_RATE_LIMIT_BURST_SECONDS=burst, **overrides
        )

    return factory

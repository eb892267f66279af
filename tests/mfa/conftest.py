"""Second-factor fixtures: TOTP codes at a frozen clock, and a person with TOTP turned on
through the API, as an integrator would."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pyotp
import pytest

import clock
from tests.helpers import bearer

START = datetime(2026, 11, 28, 10, 0, 0, tzinfo=UTC)


def code_at(secret: str, when: datetime) -> str:
    return pyotp.TOTP(secret).at(when)


def step_on(seconds: int = 30) -> datetime:
    """Move the frozen clock on (one TOTP step by default); the new now."""
    now = clock.now() + timedelta(seconds=seconds)
    clock.freeze(now)
    return now


@pytest.fixture
def frozen():
    clock.freeze(START)
    return START


@pytest.fixture
def enable_totp(app, client, frozen):
    """Turn TOTP on for `user` through the API: (secret, recovery codes)."""

    def factory(tenant, user) -> tuple[str, list[str]]:
        headers = bearer(app, tenant, user)
        started = client.post("/api/v1/me/mfa/totp", headers=headers)
        assert started.status_code == 200, started.get_json()
        secret = started.get_json()["data"]["secret"]
        confirmed = client.post(
            "/api/v1/me/mfa/totp/confirm",
            json={"code": code_at(secret, clock.now())},
            headers=headers,
        )
        assert confirmed.status_code == 200, confirmed.get_json()
        step_on()  # the confirming code's step is spent
        return secret, confirmed.get_json()["data"]["recoveryCodes"]

    return factory

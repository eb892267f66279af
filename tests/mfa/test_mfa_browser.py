"""Two-factor sign-in in a real headless Chromium: a person turns TOTP on from the portal by
reading the set-up's secret off the page (as an authenticator app reads the QR code), signs
out, and signs in again with the password and then a code. Fails on any console error; saves
screenshots."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pyotp
import pytest

from tests.browser.browser_support import BROWSER_TEST, screenshot, serving, sign_in, watched_page

pytestmark = BROWSER_TEST


@pytest.fixture
def server(app) -> Iterator[str]:
    with serving(app) as base:
        yield base


def _next_step_code(totp: pyotp.TOTP, used: str) -> str:
    """A code of a later step than `used` (a spent code is refused): waits for the step."""
    while totp.now() == used:
        time.sleep(30 - time.time() % 30 + 0.2)
    return totp.now()


def test_enable_totp_sign_out_and_sign_in_with_a_code(server, member):
    with watched_page(("status of 401",)) as (_window, page):
        sign_in(page, server, member.email)
        page.goto(f"{server}/mfa")
        page.click("#totp-start button[type=submit]")
        page.wait_for_selector("#totp-secret")
        assert page.locator(".qr svg").count() == 1  # drawn inline, no image request
        screenshot(page, "mfa-setup")
        totp = pyotp.TOTP(page.inner_text("#totp-secret").strip())
        confirmed = totp.now()
        page.fill("#code", confirmed)
        page.click("#totp-confirm button[type=submit]")
        page.wait_for_selector("#recovery-codes")
        assert page.locator("#recovery-codes li").count() == 10
        screenshot(page, "mfa-recovery-codes")

        page.click("form[action$='/logout'] button[type=submit]")
        page.wait_for_url("**/login")
        sign_in(page, server, member.email)
        page.wait_for_url("**/login/mfa")
        screenshot(page, "mfa-code-step")
        page.fill("#code", _next_step_code(totp, confirmed))
        page.click("button[type=submit]")
        page.wait_for_load_state()
        assert "/login" not in page.url
        page.goto(f"{server}/mfa")
        assert "is on" in page.inner_text("#totp-state")
        assert page.problems == []

"""The portal in a real headless Chromium against a real HTTP server: sign in, create a key and
see its secret once, call the API with it, rotate, revoke in place and get 401 right after.
Saves a screenshot of every page on the way (`make screenshots` refreshes docs/screenshots/)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import requests
from playwright.sync_api import expect

from tests.browser.browser_support import BROWSER_TEST, screenshot, serving, sign_in, watched_page
from tests.helpers import PASSWORD

pytestmark = BROWSER_TEST


@pytest.fixture
def server(app) -> Iterator[str]:
    """The test app behind a real threaded HTTP server on a free loopback port."""
    with serving(app) as base:
        yield base


@pytest.fixture
def browser_page():
    # Any CSP violation or script error would mean the page is broken under our policy;
    # "Failed to load resource" is a 4xx answer, part of the flows.
    with watched_page(ignore=("Failed to load resource",)) as (_browser, page):
        yield page


@pytest.fixture
def workspace(app, tenant, create_user, create_key):
    """A workspace that looks lived-in: people, a few keys, some traffic."""
    from extensions import db
    from services.accounts import users

    create_user(tenant, "admin", email="ada@acme.example", password=PASSWORD)
    create_user(tenant, "auditor", email="audrey@acme.example", password=PASSWORD)
    create_user(tenant, "member", email="max@acme.example", password=PASSWORD)
    _, reporting = create_key(
        tenant,
        name="reporting job",
        scopes=["documents:read", "analytics:read"],
        allowed_ips=["127.0.0.0/8", "10.20.0.0/16"],
    )
    create_key(tenant, name="mobile gateway", scopes=["documents:read", "notifications:write"])
    with app.app_context():
        users.create_support("help@operator.example", password=PASSWORD)
        db.session.commit()
    return {"reporting": reporting}


def _api(base: str, secret: str, tenant_id: str = "acme") -> requests.Response:
    return requests.get(
        f"{base}/api/v1/documents",
        headers={"Authorization": f"Bearer {secret}", "X-Tenant-Id": tenant_id},
        timeout=10,
    )


def test_key_lifecycle_in_a_real_browser(server, browser_page, workspace):
    page = browser_page
    for _ in range(12):
        assert _api(server, workspace["reporting"]).status_code == 200

    page.goto(f"{server}/login")
    screenshot(page, "01-login")
    sign_in(page, server, "ada@acme.example")
    assert page.locator("h1").inner_text() == "Dashboard"
    screenshot(page, "02-dashboard")

    page.click("text=Create API key")
    page.click("button:has-text('Create key')")  # empty form: errors beside the fields
    assert page.locator(".field-errors").count() >= 2
    page.fill("#name", "billing backend")
    page.fill("#allowed_ips", "10.0.0.0/8\nnot-an-address")
    page.check("input[value='documents:read']")
    page.check("input[value='documents:write']")
    page.click("button:has-text('Create key')")
    assert "not-an-address" in page.locator("#allowed_ips").input_value()
    assert "Line 2" in page.locator("#allowedIps-errors").inner_text()
    screenshot(page, "03-create-key-errors")
    page.fill("#allowed_ips", "127.0.0.1\n10.0.0.0/8")
    page.click("button:has-text('Create key')")
    secret = page.locator("#secret").input_value()
    assert secret.startswith("dms_")
    key_id = page.locator("#new-key-id").inner_text()
    screenshot(page, "04-key-created-secret-once")

    assert _api(server, secret).status_code == 200
    page.goto(f"{server}/keys")
    assert secret not in page.content()  # shown once, never again
    assert page.locator(f"#row-{key_id}").is_visible()
    screenshot(page, "05-api-keys")

    page.goto(f"{server}/keys/{key_id}/rotate")
    screenshot(page, "06-rotate-confirm")
    page.click("button:has-text('Create the successor key')")
    successor_secret = page.locator("#secret").input_value()
    assert successor_secret.startswith("dms_") and successor_secret != secret
    assert page.locator(".step").count() == 3
    screenshot(page, "07-rotation-three-steps")
    assert _api(server, successor_secret).status_code == 200
    assert _api(server, secret).status_code == 200  # both work until the old one is revoked

    page.goto(f"{server}/keys")
    keys_url = page.url
    page.once("dialog", lambda dialog: dialog.accept())
    page.click(f"#row-{key_id} a:text-is('Revoke')")
    page.wait_for_selector(f"#row-{key_id}.is-revoked")
    assert page.url == keys_url  # swapped in place by htmx, no navigation
    assert _api(server, secret).status_code == 401
    assert _api(server, secret).json()["errors"][0]["code"] == "API_KEY_REVOKED"
    assert _api(server, successor_secret).status_code == 200
    page.wait_for_timeout(1700)  # let the row's highlight fade before the screenshot
    screenshot(page, "08-api-keys-after-revoke")

    page.goto(f"{server}/keys/{key_id}")
    screenshot(page, "09-key-detail-history")
    page.goto(f"{server}/audit")
    assert page.locator("[data-chain=ok]").is_visible()
    screenshot(page, "10-audit-log")
    page.goto(f"{server}/users")
    screenshot(page, "11-users")
    page.goto(f"{server}/")
    screenshot(page, "12-dashboard-with-traffic")
    assert page.problems == []


def test_revoke_without_javascript_uses_the_confirmation_page(app, server, workspace, tenant):
    with watched_page(java_script_enabled=False) as (_browser, page):
        sign_in(page, server, "ada@acme.example")
        page.goto(f"{server}/keys")
        page.click("tr:has-text('reporting job') a:text-is('Revoke')")
        assert "Revoke “reporting job”?" in page.locator("h1").inner_text()
        screenshot(page, "13-revoke-confirm-no-js")
        page.click("button:has-text('Revoke this key')")
        # Without JavaScript the click is a form post; the answer page may still be loading.
        expect(page.locator("main")).to_contain_text("Calls with it now answer 401")
    assert _api(server, workspace["reporting"]).status_code == 401


def test_other_roles_in_a_real_browser(server, browser_page, workspace, tenant):
    page = browser_page
    sign_in(page, server, "max@acme.example")
    page.goto(f"{server}/keys")
    assert "Not allowed" in page.content()
    screenshot(page, "14-member-403")
    page.click("button:has-text('Sign out')")

    sign_in(page, server, "help@operator.example", workspace=None)
    assert page.locator("h1").inner_text() == "Support console"
    screenshot(page, "15-support-tenants")
    page.click("tr:has-text('acme') >> text=Audit log")
    expect(page.locator("main")).to_contain_text("Read-only support view")
    screenshot(page, "16-support-audit-log")
    assert page.problems == []

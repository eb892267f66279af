"""The workflow editor in a real headless Chromium: an admin adds two steps, picks approvers
from the people and roles, moves the second step up, saves, and finds the definition in the
API as the form said; a mistake is shown in words beside its field."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.browser_support import BROWSER_TEST, screenshot, serving, sign_in, watched_page
from tests.helpers import PASSWORD, auth_headers

pytestmark = BROWSER_TEST


def test_add_two_steps_reorder_and_save(app, client, tenant, create_user, create_key):
    create_user(tenant, "admin", email="dee@acme.example", password=PASSWORD)
    ann = create_user(tenant, "member", email="ann@acme.example")
    _key, secret = create_key(tenant)
    headers = auth_headers(secret, tenant.id)

    with serving(app) as base, watched_page(ignore=("status of 422",)) as (_browser, page):
        sign_in(page, base, "dee@acme.example")
        page.goto(f"{base}/workflows/new")
        page.fill("#name", "Contract review")
        page.fill("#steps-0-name", "Legal")
        page.select_option("#steps-0-approvers", ["role:admin"])
        page.click("#add-step")
        page.wait_for_selector("#steps-1-name")
        page.fill("#steps-1-name", "Manager")
        page.select_option("#steps-1-approvers", [f"user:{ann.id}"])
        page.check("input[name='steps-1-mode'][value='all']")
        page.fill("#steps-1-dueInHours", "0")  # a mistake: at least one hour
        page.click("#save-workflow")
        expect(page.locator("#steps-1-dueInHours-errors")).to_have_text("Enter 1 or more.")
        expect(page.locator("#steps-1-dueInHours")).to_have_attribute("aria-invalid", "true")
        screenshot(page, "workflow-editor-error")
        page.fill("#steps-1-dueInHours", "24")
        page.select_option("#steps-1-escalateTo", "role:admin")
        page.click("button[aria-label='Move step 2 up']")
        expect(page.locator("#steps-0-name")).to_have_value("Manager")
        expect(page.locator("#steps-1-name")).to_have_value("Legal")
        screenshot(page, "workflow-editor")
        page.click("#save-workflow")
        page.wait_for_url(f"{base}/workflows")
        expect(page.locator("#definitions")).to_contain_text("Contract review")
        assert page.problems == []

    [definition] = client.get("/api/v1/workflows", headers=headers).get_json()["data"]
    manager, legal = definition["steps"]
    assert (manager["name"], manager["mode"], manager["dueInHours"]) == ("Manager", "all", 24)
    assert manager["approvers"][0]["user"] == ann.id
    assert manager["escalateTo"]["role"] == "admin"
    assert (legal["name"], legal["mode"]) == ("Legal", "any")
    assert legal["approvers"][0]["role"] == "admin"

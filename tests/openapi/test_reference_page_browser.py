"""The /docs reference in a real headless Chromium: it shows the operations under the names
generated clients use; a reader who authorizes with a key can try an upload and the filtered
list from it, and one who authorizes with OAuth (PKCE in a popup) acts as themself."""

from __future__ import annotations

import json
from urllib.parse import urlsplit

import pytest

from tests.browser.browser_support import BROWSER_TEST, screenshot, serving, watched_page
from tests.helpers import PASSWORD

pytestmark = BROWSER_TEST


@pytest.fixture
def server(app):
    with serving(app) as base:
        yield base


def test_a_reader_tries_an_upload_from_the_reference(server, tenant, api_key, tmp_path):
    upload = tmp_path / "hello.txt"
    upload.write_bytes(b"Tried from the reference page.")

    with watched_page() as (_, page):
        page.set_default_timeout(10_000)
        page.goto(f"{server}/docs")
        operation = page.locator("#operations-documents-uploadDocument")
        operation.wait_for(timeout=30_000)  # the renderer parses the whole document first
        assert "uploadDocument" in operation.inner_text()
        assert page.locator("#operations-documents-listDocuments").count() == 1

        page.click("button.authorize")
        dialog = page.locator(".dialog-ux")
        for scheme, value in (("bearerAuth", api_key[1]), ("tenantId", tenant.id)):
            form = dialog.locator(".auth-container", has_text=scheme)
            form.locator("input").fill(value)
            form.locator("button.authorize").click()
        dialog.locator("button.close-modal").click()

        operation.locator(".opblock-summary").click()
        operation.locator("button.try-out__btn").click()
        operation.locator("input[type=file]").set_input_files(str(upload))
        title = operation.locator("tr[data-property-name=title] input[type=text]")
        tags = operation.locator("tr[data-property-name=tags] input[type=text]")
        metadata = operation.locator("tr[data-property-name=metadata] textarea")
        # The schema's examples, not Swagger UI's "string" placeholders.
        assert title.input_value() == "Q3 report"
        assert [tags.nth(i).input_value() for i in range(tags.count())] == ["finance", "q3"]
        assert json.loads(metadata.input_value()) == {"dept": "sales"}
        title.fill("From the docs")
        tags.first.fill("docs")
        metadata.fill('{"dept": "docs"}')
        operation.locator("button.execute").click()
        status = operation.locator(".live-responses-table tr.response .response-col_status").first
        status.wait_for()
        screenshot(page, "docs-try-an-upload")

        body = operation.locator(".live-responses-table .microlight").first.inner_text()
        assert status.inner_text().strip() == "201"
        assert '"title": "From the docs"' in body
        assert json.loads(body)["data"]["tags"] == ["docs", "q3"]
        assert page.problems == []


def test_the_document_list_tries_out_as_it_opens_and_filters_by_metadata(
    server, tenant, api_key, store_document
):
    """Try it out on listDocuments, untouched, answers 200 (no pre-filled parameter the
    server refuses); a `key:value` typed into the metadata filter narrows the list."""
    store_document(tenant, b"sales figures", "sales.txt", title="Sales", meta={"dept": "sales"})
    store_document(tenant, b"ops runbook", "ops.txt", title="Ops", meta={"dept": "ops"})

    with watched_page() as (_, page):
        page.set_default_timeout(10_000)
        page.goto(f"{server}/docs")
        operation = page.locator("#operations-documents-listDocuments")
        operation.wait_for(timeout=30_000)  # the renderer parses the whole document first
        _authorize_with_key(page, api_key[1], tenant.id)

        operation.locator(".opblock-summary").click()
        operation.locator("button.try-out__btn").click()
        body = _execute(operation)
        assert '"title": "Sales"' in body and '"title": "Ops"' in body

        metadata = operation.locator("tr[data-param-name=metadata]")
        metadata.locator("button", has_text="Add string item").click()
        metadata.locator("input[type=text]").fill("dept:sales")
        body = _execute(operation)
        screenshot(page, "docs-try-the-list-by-metadata")
        assert '"title": "Sales"' in body and '"title": "Ops"' not in body
        request_url = operation.locator(".request-url pre").inner_text()
        assert "metadata=dept%3Asales" in request_url or "metadata=dept:sales" in request_url
        assert page.problems == []


def test_authorize_with_oauth_from_the_reference_then_try_the_list(
    app, server, tenant, create_user, store_document
):
    """The reader's OAuth app (public, its one redirect URI this host's
    oauth2-redirect.html) signs a person in from Authorize: PKCE in a popup, sign-in,
    consent, back to the reference with a token that Try it out then sends."""
    from extensions import db
    from models import Tenant
    from services.core.actors import Actor
    from services.oauth import clients

    create_user(tenant, "member", email="rea@acme.example", password=PASSWORD)
    store_document(tenant, b"read by a person", "person.txt", title="For a person")
    redirect_uri = f"{server}/static/vendor/swagger-ui/oauth2-redirect.html"
    with app.app_context():
        oauth_app, _ = clients.create_client(
            db.session.get(Tenant, tenant.id), "API reference", [redirect_uri],
            ["documents:read"], Actor.cli(),
        )  # fmt: skip
        db.session.commit()
        client_id = oauth_app.id

    with watched_page() as (window, page):
        page.set_default_timeout(10_000)
        page.goto(f"{server}/docs?client_id={client_id}")
        operation = page.locator("#operations-documents-listDocuments")
        operation.wait_for(timeout=30_000)  # the renderer parses the whole document first
        assert redirect_uri in page.locator(".reference-intro").inner_text()

        page.click("button.authorize")
        dialog = page.locator(".dialog-ux")
        form = dialog.locator(".auth-container", has_text="oauth2")
        assert form.locator("input[data-name=clientId]").input_value() == client_id
        form.locator("label[for='documents:read-authorizationCode-checkbox-oauth2']").click()
        with window.context.expect_page() as opened:
            form.locator("button.authorize").click()
        popup = opened.value
        popup.wait_for_load_state()
        assert urlsplit(popup.url).path == "/login"
        popup.fill("#email", "rea@acme.example")
        popup.fill("#password", PASSWORD)
        popup.click("button[type=submit]")
        popup.wait_for_load_state()
        assert popup.locator("h1").inner_text() == "Allow API reference?"
        with popup.expect_event("close"):
            popup.click("button[name=decision][value=allow]")

        form.locator("button", has_text="Logout").wait_for()  # authorized: the token came back
        screenshot(page, "docs-authorized-with-oauth")
        dialog.locator("button.close-modal").click()

        operation.locator(".opblock-summary").click()
        operation.locator("button.try-out__btn").click()
        body = _execute(operation)
        assert '"title": "For a person"' in body
        assert "Bearer " in operation.locator(".curl-command").inner_text()
        assert page.problems == []


def _authorize_with_key(page, secret: str, tenant_id: str) -> None:
    page.click("button.authorize")
    dialog = page.locator(".dialog-ux")
    for scheme, value in (("bearerAuth", secret), ("tenantId", tenant_id)):
        form = dialog.locator(".auth-container", has_text=scheme)
        form.locator("input").fill(value)
        form.locator("button.authorize").click()
    dialog.locator("button.close-modal").click()


def _execute(operation) -> str:
    """Execute the opened operation; its response body, after checking the status is 200."""
    operation.locator("button.execute").click()
    status = operation.locator(".live-responses-table tr.response .response-col_status").first
    status.wait_for()
    body = operation.locator(".live-responses-table .microlight").first.inner_text()
    assert status.inner_text().strip() == "200", body
    return body

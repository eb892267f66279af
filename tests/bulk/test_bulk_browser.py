"""A bulk job's page in a real headless Chromium: the progress bar moves as batches commit
(htmx polls every second, no reload), the failed documents appear, and polling stops once the
job has finished. Fails on any console error (a CSP violation included); saves a screenshot."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from services.bulk import bulk as bulk_service
from services.core import transaction
from tests.browser.browser_support import BROWSER_TEST, screenshot, serving, sign_in, watched_page

pytestmark = BROWSER_TEST


@pytest.fixture
def server(app) -> Iterator[str]:
    with serving(app) as base:
        yield base


def test_the_progress_bar_follows_the_job(
    app, server, tenant, other_tenant, admin, make_documents, bulk, work, monkeypatch
):
    monkeypatch.setattr(bulk_service, "BATCH_SIZE", 2)
    ids = make_documents(tenant, 4) + make_documents(other_tenant, 1)
    response = bulk({"documentIds": ids, "operations": [{"op": "addTags", "tags": ["seen"]}]})
    job_id = response.get_json()["data"]["id"]
    with watched_page() as (_browser, page):
        sign_in(page, server, admin.email)
        page.goto(f"{server}/jobs/{job_id}")
        expect(page.locator("#job-progress")).to_have_attribute("data-status", "queued")
        with app.app_context():
            transaction.transactional(bulk_service.begin)(tenant.id, job_id)
            transaction.transactional(bulk_service.run_batch)(tenant.id, job_id)
        expect(page.locator("#job-counts")).to_have_text("2 of 5 documents done", timeout=5000)
        expect(page.locator("#job-bar")).to_have_attribute("value", "2")
        work()
        expect(page.locator("#job-progress")).to_have_attribute(
            "data-status", "partially_failed", timeout=5000
        )
        expect(page.locator("#job-errors")).to_contain_text("NOT_FOUND")
        expect(page.locator("#job-progress")).not_to_have_attribute("hx-trigger", "every 1s")
        assert page.url == f"{server}/jobs/{job_id}"
        assert page.problems == []
        screenshot(page, "bulk-job-progress")

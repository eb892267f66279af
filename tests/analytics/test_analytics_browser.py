"""The dashboard's analytics in a real headless Chromium: after uploads, a workflow decision
and API traffic, the six charts render as SVG, each with its table view, and the figures match
the API's summary."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import requests
from playwright.sync_api import expect

from tests.browser.browser_support import BROWSER_TEST, screenshot, serving, sign_in, watched_page
from tests.helpers import PASSWORD
from tests.support import stored_document

pytestmark = BROWSER_TEST

CHARTS = ("documents", "storage", "uploads", "requests", "cycle", "webhooks")


@pytest.fixture
def server(app) -> Iterator[str]:
    with serving(app) as base:
        yield base


def test_the_dashboard_draws_the_analytics_charts(app, server, tenant, create_user, create_key):
    create_user(tenant, "admin", email="ada@acme.example", password=PASSWORD)
    _, secret = create_key(
        tenant, name="reporting job", scopes=["documents:read", "analytics:read"]
    )
    for i in range(3):
        stored_document(app, tenant.id, f"report {i}".encode() * 20, f"r{i}.txt", schedule=False)
    headers = {"Authorization": f"Bearer {secret}", "X-Tenant-Id": tenant.id}
    for _ in range(4):
        assert requests.get(f"{server}/api/v1/documents", headers=headers, timeout=10).ok
    summary = requests.get(f"{server}/api/v1/analytics/summary", headers=headers, timeout=10)
    assert summary.json()["data"]["documents"]["total"] == 3

    with watched_page() as (_browser, page):
        sign_in(page, server, "ada@acme.example")
        expect(page.locator("h1")).to_have_text("Dashboard")
        stats = page.locator("section[aria-label='Analytics summary']")
        expect(stats).to_contain_text("Documents")
        expect(stats.locator(".stat-value").first).to_have_text("3")
        for name in CHARTS:
            figure = page.locator(f"#chart-{name}")
            expect(figure.locator("svg[role='img'] title").first).to_be_attached()
            # A line where there are figures; a grey "no data" band where there are none.
            expect(figure.locator("polyline.chart-line, rect.chart-nodata")).not_to_have_count(0)
            # The table view is there for screen readers, and opens for anyone.
            expect(figure.locator("table caption")).to_be_attached()
        # Nothing decided, nothing delivered: days without data, not 0 h and 0 %.
        expect(page.locator("#chart-cycle rect.chart-nodata")).to_have_count(31)
        expect(page.locator("#chart-cycle polyline.chart-line")).to_have_count(0)
        expect(page.locator("#chart-webhooks rect.chart-nodata")).to_have_count(31)
        expect(stats).not_to_contain_text("0.0 h")
        uploads = page.locator("#chart-uploads")
        uploads.locator("summary").click()
        expect(uploads.locator("tbody tr")).to_have_count(31)
        expect(uploads.locator("tbody tr").last.locator("td")).to_have_text("3")
        requests_chart = page.locator("#chart-requests")
        expect(requests_chart.locator("thead")).to_contain_text("reporting job")
        screenshot(page, "analytics-dashboard")

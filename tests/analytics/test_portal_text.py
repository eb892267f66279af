"""What the portal says in words: no spec section numbers, a webhook URL's rules as this
service applies them, approval times for people, and "—" or a gap where nothing was measured
(never "0.0 h" or 0 %)."""

from __future__ import annotations

from datetime import UTC, datetime

import clock
from portal.charts import duration_hours, line_chart
from tests.helpers import sign_in

T0 = datetime(2026, 11, 20, 9, 30, tzinfo=UTC)


def test_no_spec_sections_in_the_pages(app, admin_client, create_key, tenant):
    key, _ = create_key(tenant)
    for path in ("/keys", f"/keys/{key.id}", "/deprecations", "/"):
        page = admin_client.get(path).get_data(as_text=True)
        assert "spec 5." not in page and "section 5." not in page, path


def test_the_webhook_form_says_what_it_allows(make_app, tenant, admin):
    for allow_http, expected in ((False, "plain http is not allowed"), (True, "allows plain http")):
        application = make_app(DMS_WEBHOOK_ALLOW_HTTP=allow_http)
        client = application.test_client()
        sign_in(client, tenant.id, admin.email)
        page = client.get("/webhooks").get_data(as_text=True)
        assert expected in page
        assert "https only" not in page


def test_nothing_decided_is_a_dash_and_a_gap(app, admin_client):
    clock.freeze(T0)
    page = admin_client.get("/").get_data(as_text=True)
    stat = page[page.index("Median approval time") :][:300]
    assert "—" in stat and "0.0 h" not in stat
    cycle = page[page.index('id="chart-cycle"') :]
    cycle = cycle[: cycle.index("</figure>")]
    assert cycle.count('class="chart-nodata"') == 31
    assert "polyline" not in cycle and "none decided" in cycle


def test_a_line_breaks_where_a_period_has_no_figure():
    days = [datetime(2026, 11, d, tzinfo=UTC) for d in range(1, 7)]
    chart = line_chart(days, {"Rate": [50.0, 60.0, None, 70.0, None, None]})
    [line] = chart.lines
    assert len(line.segments) == 1 and line.segments[0].count(",") == 2  # days 1 and 2
    assert len(line.dots) == 1  # day 4 alone
    assert len(chart.gaps) == 3
    assert [row[1] for row in chart.rows][2] == ["—"]
    assert duration_hours(None) == "—" and duration_hours(0.001) == "under a minute"
    assert duration_hours(0.5) == "30 min" and duration_hours(3.25) == "3.2 h"
    assert duration_hours(72) == "3.0 days"

"""The dashboard's analytics for admins and auditors (members have their own page): the
summary figures and six charts, each with a table of the same numbers, from the same service
functions as the API."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import clock
from tests.helpers import sign_in
from tests.support import stored_document

T0 = datetime(2026, 11, 20, 9, 30, tzinfo=UTC)
CHARTS = ("documents", "storage", "uploads", "requests", "cycle", "webhooks")


def _table_rows(page: str, chart: str) -> list[list[str]]:
    figure = page[page.index(f'id="chart-{chart}"') :]
    body = figure[figure.index("<tbody>") : figure.index("</tbody>")]
    return [re.findall(r"<t[hd][^>]*>([^<]*)</t[hd]>", row) for row in body.split("<tr>")[1:]]


def test_admins_and_auditors_see_the_charts_and_their_tables(
    app, client, tenant, admin, auditor, member, create_key
):
    clock.freeze(T0)
    stored_document(app, tenant.id, b"x" * 2048, "a.txt", schedule=False)
    stored_document(app, tenant.id, b"y" * 1024, "b.txt", schedule=False)
    create_key(tenant, name="billing backend")
    for person in (admin, auditor):
        client.post("/logout")
        assert sign_in(client, tenant.id, person.email).status_code == 302
        page = client.get("/").get_data(as_text=True)
        for chart in CHARTS:
            assert f'id="chart-{chart}"' in page
        uploads = _table_rows(page, "uploads")
        assert len(uploads) == 31 and uploads[-1] == ["2026-11-20", "2"]
        assert uploads[0] == ["2026-10-21", "0"]
        assert _table_rows(page, "storage")[-1] == ["2026-11-20", "3.0 KB"]
        assert _table_rows(page, "documents")[-1] == ["2026-11-20", "2"]
        assert _table_rows(page, "webhooks")[-1] == ["2026-11-20", "no deliveries"]
        assert "Analytics summary" in page
    client.post("/logout")
    assert sign_in(client, tenant.id, member.email).status_code == 302
    assert 'id="chart-uploads"' not in client.get("/").get_data(as_text=True)

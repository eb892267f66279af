"""The summary and the usage series checked against fixtures built through the API: what is
counted, empty periods as zeros, the ranges refused, tenants apart, and the scope."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

import clock
from tests.helpers import auth_headers

API = "/api/v1/analytics"
T0 = datetime(2026, 11, 20, 9, 30, tzinfo=UTC)


def test_documents_storage_and_uploads_as_built_through_the_api(
    make_document, new_version, patch_document, summary, usage
):
    clock.freeze(T0)
    a = make_document(b"a" * 100, "a.txt")
    b = make_document(b"%PDF-1.4 " + b"b" * 191, "b.pdf")
    c = make_document(b"c" * 50, "c.txt")
    clock.freeze(T0 + timedelta(days=1))
    new_version(a["id"], b"%PDF-1.4 " + b"v" * 291, "a2.pdf")  # a becomes a PDF
    patch_document(b["id"], status="archived")
    patch_document(c["id"], status="deleted")
    figures = summary()
    assert figures["documents"] == {
        "total": 3,
        "byStatus": {"active": 1, "archived": 1, "deleted": 1},
        "byContentType": {"application/pdf": 2, "text/plain": 1},
    }
    assert figures["storageBytes"] == 100 + 200 + 50 + 300
    patch_document(c["id"], status="active")  # restored from the trash
    assert summary()["documents"]["byStatus"] == {"active": 2, "archived": 1, "deleted": 0}

    days = {"from": "2026-11-19T00:00:00Z", "to": "2026-11-23T00:00:00Z"}
    assert usage(metric="uploads", **days) == [
        ("2026-11-19T00:00:00Z", 0),
        ("2026-11-20T00:00:00Z", 3),
        ("2026-11-21T00:00:00Z", 1),
        ("2026-11-22T00:00:00Z", 0),
    ]
    assert [v for _, v in usage(metric="storageBytes", **days)] == [0, 350, 650, 650]
    assert [v for _, v in usage(metric="documents", **days)] == [0, 3, 3, 3]
    morning = {"from": "2026-11-20T08:00:00Z", "to": "2026-11-20T11:00:00Z"}
    hours = usage(metric="uploads", granularity="hour", **morning)
    assert hours == [
        ("2026-11-20T08:00:00Z", 0),
        ("2026-11-20T09:00:00Z", 3),
        ("2026-11-20T10:00:00Z", 0),
    ]
    # A gauge by the hour starts from everything before the range.
    later = usage(
        metric="storageBytes",
        granularity="hour",
        **{"from": "2026-11-21T20:00:00Z", "to": "2026-11-21T22:00:00Z"},
    )
    assert [v for _, v in later] == [650, 650]


def test_a_new_tenant_has_zeros_everywhere(summary, usage):
    clock.freeze(T0)
    figures = summary()
    assert figures["documents"] == {
        "total": 0,
        "byStatus": {"active": 0, "archived": 0, "deleted": 0},
        "byContentType": {},
    }
    assert figures["storageBytes"] == 0
    assert figures["workflows"] == {
        "byState": {s: 0 for s in ("pending", "in_progress", "approved", "rejected", "cancelled")},
        "medianCycleHours": None,
    }
    assert figures["webhooks"] == {"deliveries": 0, "successRate": None}
    points = usage(metric="uploads")  # default: the 30 days before now
    assert len(points) == 31 and {v for _, v in points} == {0}
    assert points[0][0] == "2026-10-21T00:00:00Z" and points[-1][0] == "2026-11-20T00:00:00Z"
    assert len(usage(metric="apiRequests", granularity="hour")) == 25


def test_api_requests_per_hour_all_keys_and_by_key(
    app, client, tenant, create_key, headers, usage, summary
):
    clock.freeze(T0)
    other, secret = create_key(tenant, scopes=["documents:read"])
    for _ in range(3):
        assert (
            client.get("/api/v1/documents", headers=auth_headers(secret, tenant.id)).status_code
            == 200
        )
    window = {"granularity": "hour", "from": "2026-11-20T08:00:00Z", "to": "2026-11-20T10:00:00Z"}
    assert usage(metric="apiRequests", keyId=other.id, **window) == [
        ("2026-11-20T08:00:00Z", 0),
        ("2026-11-20T09:00:00Z", 3),
    ]
    all_keys = dict(usage(metric="apiRequests", **window))
    assert all_keys["2026-11-20T09:00:00Z"] >= 4  # the 3, and the first read above
    assert summary()["apiRequests"]["lastHour"] >= 5


@pytest.mark.parametrize(
    "params, field",
    [
        ({"metric": "uploads", "from": "2026-11-20T00:00Z", "to": "2026-11-20T00:00Z"}, "from"),
        ({"metric": "uploads", "from": "2026-11-21T00:00Z", "to": "2026-11-20T00:00Z"}, "from"),
        ({"metric": "uploads", "from": "2025-10-01T00:00:00Z", "to": "2026-11-20T00:00:00Z"}, "to"),
        ({"metric": "uploads", "granularity": "hour", "from": "2026-10-01T00:00:00Z",
          "to": "2026-11-20T00:00:00Z"}, "to"),
        ({"metric": "uploads", "granularity": "minute"}, "granularity"),
        ({"metric": "pageViews"}, "metric"),
        ({}, "metric"),
        ({"metric": "uploads", "from": "yesterday"}, "from"),
        ({"metric": "uploads", "sort": "at"}, "sort"),
        ({"metric": "uploads", "keyId": "key_x"}, "keyId"),
        ({"metric": "uploads", "from": "9999-12-30T00:00Z", "to": "9999-12-31T12:00Z"}, "to"),
        ({"metric": "uploads", "from": "0001-01-01T00:00Z", "to": "2026-01-02T00:00Z"}, "from"),
        ({"metric": "uploads", "to": "9999-12-31T12:00:00Z"}, "to"),
    ],
)  # fmt: skip
def test_bad_ranges_and_parameters_are_400_invalid_parameter(client, headers, params, field):
    clock.freeze(T0)
    response = client.get(f"{API}/usage", query_string=params, headers=headers)
    assert response.status_code == 400, response.get_json()
    body = response.get_json()
    assert body["success"] is False
    assert body["errors"][0]["code"] == "INVALID_PARAMETER"
    assert body["errors"][0]["field"] == field


def test_the_longest_ranges_allowed(usage):
    clock.freeze(T0)
    days = usage(
        metric="documents", **{"from": "2025-10-17T00:00:00Z", "to": "2026-11-21T00:00:00Z"}
    )
    assert len(days) == 400
    hours = usage(metric="uploads", granularity="hour",
                  **{"from": "2026-10-21T00:00:00Z", "to": "2026-11-20T00:00:00Z"})  # fmt: skip
    assert len(hours) == 720
    # A time without a zone is UTC; one with an offset is converted.
    assert usage(
        metric="uploads", **{"from": "2026-11-19T00:00:00", "to": "2026-11-20T02:00:00+02:00"}
    ) == [("2026-11-19T00:00:00Z", 0)]


def test_the_longest_series_conforms_to_the_served_document(client, headers):
    """Found by the schemathesis run: 720 hourly points answered meta.pagination.limit = 720,
    and the document capped every list's limit at 200 (a series has no page size: it is
    answered whole, so its limit is its number of points)."""
    import jsonschema

    clock.freeze(T0)
    spec = client.get("/api/v1/openapi.json").get_json()
    operation = spec["paths"]["/api/v1/analytics/usage"]["get"]
    schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
    response = client.get(
        f"{API}/usage",
        query_string={"metric": "uploads", "granularity": "hour",
                      "from": "2026-10-21T00:00:00Z", "to": "2026-11-20T00:00:00Z"},
        headers=headers,
    )  # fmt: skip
    body = response.get_json()
    assert body["meta"]["pagination"] == {"limit": 720, "hasMore": False}
    jsonschema.validate(body, {**schema, "components": spec["components"]})


def test_tenants_see_only_their_own_figures(
    make_document, client, other_tenant, create_key, summary, usage, api_key
):
    clock.freeze(T0)
    make_document(b"x" * 10)
    _, secret = create_key(other_tenant)
    theirs = auth_headers(secret, other_tenant.id)
    assert summary(theirs)["documents"]["total"] == 0
    assert summary(theirs)["storageBytes"] == 0
    assert {v for _, v in usage(theirs, metric="uploads")} == {0}
    assert summary()["documents"]["total"] == 1
    # Another tenant's key by id: 404, as for any other resource of theirs.
    response = client.get(
        f"{API}/usage",
        query_string={"metric": "apiRequests", "keyId": api_key[0].id},
        headers=theirs,
    )
    assert response.status_code == 404
    assert response.get_json()["errors"][0]["code"] == "NOT_FOUND"
    # A key of one tenant used with the other's id: refused before any figure.
    response = client.get(f"{API}/summary", headers=auth_headers(secret, "acme"))
    assert response.status_code == 403


def test_analytics_read_scope_is_needed(app, client, tenant, create_key, member):
    from tests.helpers import bearer

    _, secret = create_key(tenant, scopes=["documents:read"])
    for path in (f"{API}/summary", f"{API}/usage?metric=uploads"):
        response = client.get(path, headers=auth_headers(secret, tenant.id))
        assert response.status_code == 403
        assert response.get_json()["errors"][0]["code"] == "INSUFFICIENT_SCOPE"
        assert "analytics:read" in response.get_json()["errors"][0]["message"]
        # Members' tokens never carry it (admins and auditors read analytics).
        response = client.get(path, headers=bearer(app, tenant, member))
        assert response.status_code == 403
    response = client.get(f"{API}/summary")
    assert response.status_code in (400, 401)


def test_workflow_cycle_times_and_webhook_success_rate(
    client, headers, make_document, flow, people, receiver, local_delivery, work, summary, usage
):
    from tests.webhooks.receiver import Answer

    clock.freeze(T0)
    hook = client.post(
        "/api/v1/webhooks",
        json={"url": receiver.url(), "events": ["document.created"]},
        headers=headers,
    ).get_json()["data"]["id"]
    receiver.answer(Answer(200), Answer(200), Answer(200), Answer(410))
    docs = [make_document(f"doc {i}".encode(), f"d{i}.txt") for i in range(4)]
    work()
    figures = summary()["webhooks"]
    assert figures == {"deliveries": 4, "successRate": 0.75}
    day = {"from": "2026-11-20T00:00:00Z", "to": "2026-11-21T00:00:00Z"}
    assert usage(metric="webhookDeliveries", **day) == [("2026-11-20T00:00:00Z", 4)]
    assert usage(metric="webhookDeliveriesFailed", **day) == [("2026-11-20T00:00:00Z", 1)]
    assert hook

    ann = people["ann"]
    definition = flow.define([{"name": "Check", "approvers": [{"user": ann.id}]}])
    started = [flow.start(definition["id"], d["id"]).get_json()["data"]["id"] for d in docs[:3]]
    clock.shift(timedelta(hours=2))
    flow.act(started[0], "approve", ann)
    clock.shift(timedelta(hours=4))
    flow.act(started[1], "reject", ann)
    clock.shift(timedelta(hours=6))
    flow.act(started[2], "approve", ann)  # cycles: 2, 6 and 12 hours
    workflows = summary()["workflows"]
    assert workflows["medianCycleHours"] == 6.0
    assert workflows["byState"]["approved"] == 2 and workflows["byState"]["rejected"] == 1
    assert usage(metric="workflowsFinished", **day) == [("2026-11-20T00:00:00Z", 3)]
    assert usage(metric="workflowCycleHours", **day) == [("2026-11-20T00:00:00Z", 6.67)]
    # Thirty days later the window has moved on: no median, no rate.
    clock.shift(timedelta(days=31))
    later = summary()
    assert later["workflows"]["medianCycleHours"] is None
    assert later["webhooks"] == {"deliveries": 0, "successRate": None}

"""`flask analytics rebuild` recounts from the records exactly what live counting kept, after
a mixed series of API operations: uploads, new versions, archive, trash, restore, purge,
workflow approvals, rejections and a cancel, webhook deliveries that succeed, fail, are
retried, and an endpoint deleted with its deliveries."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import clock
from tests.webhooks.receiver import Answer

T0 = datetime(2026, 9, 1, 8, 15, tzinfo=UTC)
HOOKS = "/api/v1/webhooks"


def _endpoint(client, headers, url: str, events: list[str]) -> str:
    response = client.post(HOOKS, json={"url": url, "events": events}, headers=headers)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["data"]["id"]


def _deliveries(client, headers, endpoint_id: str) -> list[dict]:
    return client.get(f"{HOOKS}/{endpoint_id}/deliveries", headers=headers).get_json()["data"]


def test_rebuild_equals_live_counting(
    app, client, headers, tenant, other_tenant, make_document, new_version, patch_document,
    flow, people, receiver, local_delivery, work, aggregates, summary,
):  # fmt: skip
    clock.freeze(T0)
    hook_a = _endpoint(client, headers, receiver.url("/a"), ["document.created"])
    receiver.answer(Answer(410))  # the first delivery fails and disables the endpoint
    doc1 = make_document(b"one" * 10, "one.txt")
    work()
    [failed] = _deliveries(client, headers, hook_a)
    assert failed["status"] == "failed"

    clock.shift(timedelta(hours=2))
    assert (
        client.patch(f"{HOOKS}/{hook_a}", json={"enabled": True}, headers=headers).status_code
        == 200
    )
    retry = client.post(f"{HOOKS}/{hook_a}/deliveries/{failed['id']}/retry", headers=headers)
    assert retry.status_code == 202, retry.get_json()
    work()  # the retry succeeds: the failure is taken back
    doc2 = make_document(b"%PDF-1.4 two", "two.pdf")
    doc3 = make_document(b"three" * 7, "three.txt")
    work()
    receiver.answer(Answer(410))
    make_document(b"four", "four.txt")
    work()
    statuses = sorted(d["status"] for d in _deliveries(client, headers, hook_a))
    assert statuses == ["failed", "succeeded", "succeeded", "succeeded"]
    # A replay of the first two hours sends doc1's event again: its outcome is taken back and
    # counted anew (the endpoint is enabled again first; the 410 disabled it).
    assert (
        client.patch(f"{HOOKS}/{hook_a}", json={"enabled": True}, headers=headers).status_code
        == 200
    )
    clock.shift(timedelta(minutes=30))
    body = {"from": T0.isoformat(), "to": (T0 + timedelta(hours=1)).isoformat()}
    replayed = client.post(f"{HOOKS}/{hook_a}/replay", json=body, headers=headers)
    assert replayed.status_code == 202, replayed.get_json()
    receiver.answer(Answer(500))
    work()  # the replayed delivery fails once and waits to retry: open, not counted

    clock.shift(timedelta(days=1, hours=3))
    new_version(doc1["id"], b"%PDF-1.4 one, again", "one.pdf")
    new_version(doc1["id"], b"one, third" * 3, "one.txt")
    patch_document(doc2["id"], status="archived")
    patch_document(doc3["id"], status="deleted")
    clock.shift(timedelta(hours=5))
    patch_document(doc3["id"], status="active")
    patch_document(doc3["id"], status="deleted")
    patch_document(doc2["id"], status="deleted")

    ann = people["ann"]
    definition = flow.define([{"name": "Check", "approvers": [{"user": ann.id}]}])
    approved = flow.start(definition["id"], doc1["id"]).get_json()["data"]["id"]
    rejected = flow.start(definition["id"], doc1["id"]).get_json()["data"]["id"]
    cancelled = flow.start(definition["id"], doc1["id"]).get_json()["data"]["id"]
    flow.start(definition["id"], doc1["id"])  # stays pending
    clock.shift(timedelta(hours=6))
    assert flow.act(approved, "approve", ann).status_code == 200
    clock.shift(timedelta(hours=3))
    assert flow.act(rejected, "reject", ann).status_code == 200
    assert (
        client.post(f"/api/v1/workflows/instances/{cancelled}/cancel", headers=headers).status_code
        == 200
    )

    hook_b = _endpoint(client, headers, receiver.url("/b"), ["*"])
    new_version(doc1["id"], b"one, fourth", "one.txt")
    work()
    assert [d["status"] for d in _deliveries(client, headers, hook_b)] == ["succeeded"]
    assert client.delete(f"{HOOKS}/{hook_b}", headers=headers).status_code == 200

    clock.shift(timedelta(days=31))  # past the trash retention: doc2 and doc3 go for good
    with app.app_context():
        from services.documents import purge

        assert purge.purge_trash(tenant_id=tenant.id).documents == 2

    live = aggregates(tenant.id)
    live_summary = summary()
    assert live_summary["documents"]["total"] == 2
    assert live_summary["workflows"]["byState"] == {
        "pending": 1, "in_progress": 0, "approved": 1, "rejected": 1, "cancelled": 1,
    }  # fmt: skip
    counters, _ = live
    assert (
        sum(v for (m, _, g, _), v in counters.items() if m == "documentsPurged" and g == "day") == 2
    )
    # Live counting and a rebuild agree, with the purged documents' history kept.
    result = app.test_cli_runner().invoke(args=["analytics", "rebuild", tenant.id])
    assert result.exit_code == 0, result.output
    assert "rebuilt 2 documents, 5 versions" in result.output
    assert aggregates(tenant.id) == live
    rebuilt_summary = summary()
    del rebuilt_summary["apiRequests"], live_summary["apiRequests"]  # reading counts as a request
    assert rebuilt_summary == live_summary
    # A second rebuild changes nothing either.
    assert app.test_cli_runner().invoke(args=["analytics", "rebuild", tenant.id]).exit_code == 0
    assert aggregates(tenant.id) == live
    assert aggregates(other_tenant.id) == ({}, {})


def test_rebuild_repairs_lost_counts_and_refuses_unknown_tenants(
    app, tenant, make_document, aggregates
):
    clock.freeze(T0)
    make_document(b"x" * 42)
    make_document(b"y" * 8)
    live = aggregates(tenant.id)
    with app.app_context():
        from sqlalchemy import delete

        from extensions import db
        from models import AnalyticsCounter, AnalyticsTotal

        db.session.execute(delete(AnalyticsCounter))
        db.session.execute(delete(AnalyticsTotal))
        db.session.commit()
    assert aggregates(tenant.id) == ({}, {})
    assert app.test_cli_runner().invoke(args=["analytics", "rebuild", tenant.id]).exit_code == 0
    assert aggregates(tenant.id) == live
    result = app.test_cli_runner().invoke(args=["analytics", "rebuild", "no-such-tenant"])
    assert result.exit_code == 1
    assert "Tenant not found" in result.output or "not found" in result.output.lower()

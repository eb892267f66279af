"""The tenant's admins hear about webhooks that stopped working: a delivery failed for good,
an endpoint disabled by a 410 or by five days of failures. Once per endpoint and day, however
many deliveries fail; members and other tenants hear nothing."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import clock
from tests.helpers import notifications_of as notifications
from tests.webhooks.receiver import Answer, Receiver

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)


def notifications_of(app, user) -> list[tuple[str, dict]]:
    return [(kind, data) for kind, _title, data in notifications(app, user)]


def test_a_410_tells_every_admin_once(
    app, receiver, make_endpoint, emit, work, tenant, admin, member, create_user, other_tenant
):
    second_admin = create_user(tenant, "admin", email="second@acme.example")
    stranger = create_user(other_tenant, "admin", email="admin@other.example")
    receiver.default = Answer(410, body=b"gone")
    endpoint_id, _ = make_endpoint(tenant, receiver.url(), ["document.created"])
    emit(tenant)
    emit(tenant)  # two deliveries answered 410 in one run of the worker
    work()
    for person in (admin, second_admin):
        got = notifications_of(app, person)
        disabled = [data for kind, data in got if kind == "webhook.endpoint_disabled"]
        failed = [data for kind, data in got if kind == "webhook.delivery_failed"]
        assert len(disabled) == 1 and disabled[0]["webhookId"] == endpoint_id
        assert "410" in disabled[0]["reason"]
        assert len(failed) == 1 and failed[0]["webhookId"] == endpoint_id
    assert notifications_of(app, member) == []
    assert notifications_of(app, stranger) == []


def test_a_spent_schedule_tells_the_admins(
    app, receiver, make_endpoint, emit, work, reconcile, tenant, admin
):
    receiver.default = Answer(500)
    endpoint_id, _ = make_endpoint(tenant, receiver.url(), ["document.created"])
    clock.freeze(T0)
    emit(tenant)
    work()
    assert notifications_of(app, admin) == []  # a retry is coming: nothing to say yet
    clock.freeze(T0 + timedelta(hours=48))
    for _ in range(7):
        reconcile()
        work()
    [(kind, data)] = notifications_of(app, admin)
    assert kind == "webhook.delivery_failed" and data["webhookId"] == endpoint_id


def test_notifications_reach_subscribed_endpoints_as_events(
    app, receiver, make_endpoint, emit, work, tenant, admin
):
    """`notification.created` is an event like any other: an endpoint may subscribe to it."""
    make_endpoint(tenant, receiver.url("/listener"), ["notification.created"])
    gone = Receiver().start()
    try:
        gone.default = Answer(410)
        make_endpoint(tenant, gone.url("/failing"), ["document.created"])
        emit(tenant)
        work()
    finally:
        gone.stop()
    assert len(gone.requests) == 1
    payloads = [json.loads(r.body) for r in receiver.requests]
    assert {p["type"] for p in payloads} == {"notification.created"}
    kinds = sorted(p["data"]["notification"]["type"] for p in payloads)
    assert kinds == ["webhook.delivery_failed", "webhook.endpoint_disabled"]
    assert {p["data"]["notification"]["userId"] for p in payloads} == {admin.id}

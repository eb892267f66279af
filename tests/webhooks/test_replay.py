"""Replaying a time range of events to an endpoint (POST /api/v1/webhooks/{id}/replay): the
same webhook-id again, events from before the endpoint existed, only the types it wants, a
fresh schedule counted from the replay, and what is refused."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import clock
from tests.helpers import audit_actions, auth_headers
from tests.webhooks.receiver import Answer

T0 = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)


def _replay(client, headers, endpoint_id, start, end):
    body = {"from": start.isoformat(), "to": end.isoformat()}
    return client.post(f"/api/v1/webhooks/{endpoint_id}/replay", json=body, headers=headers)


def test_a_range_is_sent_again_with_the_same_webhook_ids(
    app, client, headers, receiver, make_endpoint, emit, work, tenant
):
    clock.freeze(T0)
    endpoint_id, _ = make_endpoint(tenant, receiver.url())
    first = emit(tenant)
    clock.shift(timedelta(hours=1))
    second = emit(tenant)
    clock.shift(timedelta(hours=2))
    third = emit(tenant)
    work()
    assert len(receiver.requests) == 3

    clock.shift(timedelta(hours=1))
    response = _replay(
        client, headers, endpoint_id, T0 + timedelta(minutes=30), T0 + timedelta(hours=4)
    )
    assert response.status_code == 202, response.json
    assert response.json["data"] == {"events": 2}
    work()
    again = [r.headers["webhook-id"] for r in receiver.requests[3:]]
    # A batch is sent concurrently: the order of arrival is not promised.
    assert sorted(again) == sorted([second, third]) and first not in again
    assert "webhook.replayed" in audit_actions(app, tenant.id)


def test_events_from_before_the_endpoint_and_only_the_wanted_types(
    client, headers, receiver, make_endpoint, emit, work, tenant
):
    clock.freeze(T0)
    wanted = emit(tenant, "document.created")
    emit(tenant, "api_key.created", {"apiKey": {"id": "key_1"}})
    clock.shift(timedelta(hours=1))
    endpoint_id, _ = make_endpoint(tenant, receiver.url(), ["document.created"])
    work()
    assert receiver.requests == []

    response = _replay(client, headers, endpoint_id, T0 - timedelta(minutes=1), clock.now())
    assert response.json["data"] == {"events": 1}
    work()
    assert [r.headers["webhook-id"] for r in receiver.requests] == [wanted]


def test_a_failing_replay_gets_the_whole_schedule_from_the_replay(
    client, headers, receiver, make_endpoint, emit, work, tenant, deliveries_of
):
    clock.freeze(T0)
    endpoint_id, _ = make_endpoint(tenant, receiver.url())
    emit(tenant)
    work()
    clock.shift(timedelta(days=3))  # the event's own 48 hours are long gone
    receiver.answer(Answer(500))
    replayed_at = clock.now()
    _replay(client, headers, endpoint_id, T0, replayed_at)
    work()

    # (the API key of `headers`, made at the real time, is an event of the range too)
    [delivery] = [d for d in deliveries_of(endpoint_id) if d["eventType"] == "document.created"]
    assert delivery["status"] == "retrying"
    assert delivery["nextAttemptAt"] == clock.rfc3339(replayed_at + timedelta(minutes=5))
    document_requests = [r for r in receiver.requests if b"document.created" in r.body]
    assert len(document_requests) == 2  # the first delivery and one replayed attempt


def test_what_a_replay_refuses(
    client, headers, receiver, make_endpoint, tenant, other_tenant, create_key
):
    endpoint_id, _ = make_endpoint(tenant, receiver.url())
    start = T0

    def code(response) -> tuple[int, str]:
        return response.status_code, response.json["errors"][0]["code"]

    naive = {"from": "2026-11-20T09:00:00", "to": "2026-11-20T10:00:00"}
    path = f"/api/v1/webhooks/{endpoint_id}/replay"
    assert code(client.post(path, json=naive, headers=headers)) == (422, "VALIDATION_ERROR")
    assert code(_replay(client, headers, endpoint_id, start, start)) == (422, "VALIDATION_ERROR")
    too_long = _replay(client, headers, endpoint_id, start, start + timedelta(days=32))
    assert code(too_long) == (422, "VALIDATION_ERROR")
    assert code(client.post(path, json={"from": 1}, headers=headers))[0] == 422

    _other_key, other_secret = create_key(other_tenant)
    foreign = _replay(client, auth_headers(other_secret, other_tenant.id), endpoint_id, start,
                      start + timedelta(hours=1))  # fmt: skip
    assert code(foreign) == (404, "NOT_FOUND")
    _reader, reader_secret = create_key(tenant, scopes=["webhooks:read"])
    read_only = _replay(client, auth_headers(reader_secret, tenant.id), endpoint_id, start,
                        start + timedelta(hours=1))  # fmt: skip
    assert code(read_only) == (403, "INSUFFICIENT_SCOPE")

    client.patch(f"/api/v1/webhooks/{endpoint_id}", json={"enabled": False}, headers=headers)
    disabled = _replay(client, headers, endpoint_id, start, start + timedelta(hours=1))
    assert code(disabled) == (409, "CONFLICT")


def test_an_admin_replays_a_range_from_the_portal(
    app, admin_client, tenant, make_endpoint, emit, receiver, work
):
    from tests.helpers import post

    clock.freeze(T0)
    endpoint_id, _ = make_endpoint(tenant, receiver.url())
    event_id = emit(tenant)
    work()
    detail = admin_client.get(f"/webhooks/{endpoint_id}").get_data(as_text=True)
    assert "Replay events" in detail

    form = {"from": "2026-11-20T08:30", "to": "2026-11-20T09:30"}
    response = post(admin_client, f"/webhooks/{endpoint_id}/replay", form)
    assert response.status_code == 302
    work()
    assert [r.headers["webhook-id"] for r in receiver.requests] == [event_id, event_id]
    page = admin_client.get(f"/webhooks/{endpoint_id}").get_data(as_text=True)
    assert "Replaying 1 event to this endpoint." in page

    backwards = {"from": "2026-11-20T10:00", "to": "2026-11-20T09:00"}
    post(admin_client, f"/webhooks/{endpoint_id}/replay", backwards)
    page = admin_client.get(f"/webhooks/{endpoint_id}").get_data(as_text=True)
    assert "&#39;to&#39; must be after &#39;from&#39;." in page
    assert "webhook.replayed" in audit_actions(app, tenant.id)

"""Deliveries to a real local receiver: Standard Webhooks signatures checked by the
independent `standardwebhooks` package, the whole schedule on a controlled clock, 410, 3xx,
Retry-After, rotation, the test event, retry, and the delivery log over the API."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

import clock
from tests.webhooks.receiver import Answer

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
SCHEDULE = [
    timedelta(0),
    timedelta(minutes=5),
    timedelta(minutes=30),
    timedelta(hours=2),
    timedelta(hours=6),
    timedelta(hours=12),
    timedelta(hours=24),
    timedelta(hours=48),
]


def test_an_event_arrives_signed_per_standard_webhooks(
    receiver, make_endpoint, emit, work, tenant, deliveries_of
):
    endpoint_id, secret = make_endpoint(tenant, receiver.url())
    event_id = emit(tenant, "document.created", {"document": {"id": "doc_1", "title": "Q3"}})
    work()
    assert len(receiver.requests) == 1
    request = receiver.requests[0]
    assert request.headers["webhook-id"] == event_id
    assert request.headers["content-type"] == "application/json"
    payload = Webhook(secret).verify(request.body, request.headers)
    assert payload == {
        "id": event_id,
        "type": "document.created",
        "createdAt": payload["createdAt"],
        "tenantId": tenant.id,
        "data": {"document": {"id": "doc_1", "title": "Q3"}},
    }
    with pytest.raises(WebhookVerificationError):
        Webhook("whsec_" + "A" * 44).verify(request.body, request.headers)
    [delivery] = deliveries_of(endpoint_id)
    assert delivery["status"] == "succeeded" and delivery["eventId"] == event_id
    assert delivery["attempts"][0]["statusCode"] == 200
    assert delivery["attempts"][0]["responseExcerpt"] == "ok"


def test_only_subscribed_enabled_endpoints_of_the_tenant_get_it(
    receiver, make_endpoint, emit, work, tenant, other_tenant
):
    make_endpoint(tenant, receiver.url("/wanted"), ["document.created"])
    make_endpoint(tenant, receiver.url("/other-type"), ["api_key.revoked"])
    make_endpoint(tenant, receiver.url("/disabled"), ["*"], enabled=False)
    make_endpoint(other_tenant, receiver.url("/other-tenant"), ["*"])
    emit(tenant, "document.created")
    work()
    assert [r.path for r in receiver.requests] == ["/wanted"]


def test_the_whole_schedule_then_failed(
    receiver, make_endpoint, emit, work, reconcile, tenant, deliveries_of
):
    receiver.default = Answer(500, body=b"down")
    endpoint_id, _ = make_endpoint(tenant, receiver.url())
    clock.freeze(T0)
    event_id = emit(tenant)
    work()
    for offset in SCHEDULE[1:]:
        clock.freeze(T0 + offset - timedelta(seconds=1))
        reconcile()
        work()  # not due yet: nothing sent
        clock.freeze(T0 + offset)
        reconcile()
        work()
    clock.freeze(T0 + timedelta(days=5))
    assert reconcile() == 0
    [delivery] = deliveries_of(endpoint_id)
    assert delivery["status"] == "failed" and delivery["nextAttemptAt"] is None
    at = [datetime.fromisoformat(a["at"].replace("Z", "+00:00")) for a in delivery["attempts"]]
    assert at == [T0 + offset for offset in SCHEDULE]
    assert {a["statusCode"] for a in delivery["attempts"]} == {500}
    assert delivery["attempts"][0]["error"] == "HTTP 500"
    assert delivery["attempts"][0]["responseExcerpt"] == "down"
    # Receivers deduplicate by webhook-id: the same on every attempt.
    assert [r.headers["webhook-id"] for r in receiver.requests] == [event_id] * 8


def test_a_later_success_ends_the_schedule(
    receiver, make_endpoint, emit, work, reconcile, tenant, deliveries_of
):
    receiver.answer(Answer(502), Answer(204, body=b""))
    endpoint_id, _ = make_endpoint(tenant, receiver.url())
    clock.freeze(T0)
    emit(tenant)
    work()
    [delivery] = deliveries_of(endpoint_id)
    assert delivery["status"] == "retrying"
    assert delivery["nextAttemptAt"] == clock.rfc3339(T0 + timedelta(minutes=5))
    clock.freeze(T0 + timedelta(minutes=5))
    reconcile()
    work()
    [delivery] = deliveries_of(endpoint_id)
    assert delivery["status"] == "succeeded" and delivery["attemptCount"] == 2


def test_410_disables_the_endpoint_at_once(
    client, headers, receiver, make_endpoint, emit, work, tenant, deliveries_of
):
    receiver.default = Answer(410, body=b"gone")
    endpoint_id, _ = make_endpoint(tenant, receiver.url())
    emit(tenant)
    work()
    [delivery] = deliveries_of(endpoint_id)
    assert delivery["status"] == "failed" and delivery["attemptCount"] == 1
    endpoint = client.get(f"/api/v1/webhooks/{endpoint_id}", headers=headers).json["data"]
    assert endpoint["enabled"] is False and "410" in endpoint["disabledReason"]
    emit(tenant)  # nothing more goes to it
    work()
    assert len(receiver.requests) == 1


def test_a_redirect_is_a_failure_and_is_not_followed(
    receiver, make_endpoint, emit, work, tenant, deliveries_of
):
    receiver.answer(Answer(302, {"Location": receiver.url("/elsewhere")}, b""))
    endpoint_id, _ = make_endpoint(tenant, receiver.url())
    emit(tenant)
    work()
    assert [r.path for r in receiver.requests] == ["/hook"]
    [delivery] = deliveries_of(endpoint_id)
    assert delivery["status"] == "retrying"
    assert delivery["attempts"][0]["statusCode"] == 302
    assert "redirect" in delivery["attempts"][0]["error"]


@pytest.mark.parametrize("status", [429, 503])
def test_retry_after_within_the_schedule_is_honoured(
    receiver, make_endpoint, emit, work, tenant, deliveries_of, status
):
    receiver.answer(Answer(status, {"Retry-After": "3600"}))
    endpoint_id, _ = make_endpoint(tenant, receiver.url())
    clock.freeze(T0)
    emit(tenant)
    work()
    [delivery] = deliveries_of(endpoint_id)
    # The schedule says 5 minutes; the receiver asked for an hour, which is within 48 hours.
    assert delivery["nextAttemptAt"] == clock.rfc3339(T0 + timedelta(hours=1))


def test_retry_after_beyond_the_schedule_is_ignored(
    receiver, make_endpoint, emit, work, tenant, deliveries_of
):
    receiver.answer(Answer(429, {"Retry-After": str(3 * 24 * 3600)}))
    endpoint_id, _ = make_endpoint(tenant, receiver.url())
    clock.freeze(T0)
    emit(tenant)
    work()
    [delivery] = deliveries_of(endpoint_id)
    assert delivery["nextAttemptAt"] == clock.rfc3339(T0 + timedelta(minutes=5))


def test_rotation_sends_both_signatures_for_24_hours(
    client, headers, receiver, make_endpoint, emit, work, tenant
):
    endpoint_id, old = make_endpoint(tenant, receiver.url())
    rotated = client.post(f"/api/v1/webhooks/{endpoint_id}/rotate-secret", headers=headers)
    new = rotated.json["data"]["secret"]
    emit(tenant)
    work()
    request = receiver.requests[-1]
    assert len(request.headers["webhook-signature"].split(" ")) == 2
    Webhook(old).verify(request.body, request.headers)
    Webhook(new).verify(request.body, request.headers)
    clock.shift(timedelta(hours=24, seconds=1))
    emit(tenant)
    work()
    request = receiver.requests[-1]
    assert len(request.headers["webhook-signature"].split(" ")) == 1
    signed_at = int(request.headers["webhook-timestamp"])
    # The clock was moved a day on; check the signature at the time it was made.
    headers_now = {**request.headers, "webhook-timestamp": str(signed_at)}
    assert _signature_valid(new, request.body, headers_now)
    assert not _signature_valid(old, request.body, headers_now)


def _signature_valid(secret: str, body: bytes, headers: dict) -> bool:
    hook = Webhook(secret)
    at = datetime.fromtimestamp(int(headers["webhook-timestamp"]), UTC)
    expected = hook.sign(headers["webhook-id"], at, body.decode())
    return expected in headers["webhook-signature"].split(" ")


def test_test_event_goes_to_that_endpoint_alone(
    client, headers, receiver, make_endpoint, work, tenant
):
    endpoint_id, secret = make_endpoint(tenant, receiver.url("/one"))
    make_endpoint(tenant, receiver.url("/two"))
    response = client.post(f"/api/v1/webhooks/{endpoint_id}/test", headers=headers)
    assert response.status_code == 202, response.json
    assert response.json["data"]["eventType"] == "webhook.test"
    work()
    assert [r.path for r in receiver.requests] == ["/one"]
    assert (
        Webhook(secret).verify(receiver.requests[0].body, receiver.requests[0].headers)["type"]
        == "webhook.test"
    )


def test_deliveries_list_and_retry_over_the_api(
    client, headers, receiver, make_endpoint, emit, work, tenant
):
    receiver.answer(Answer(500), Answer(200))
    endpoint_id, _ = make_endpoint(tenant, receiver.url())
    event_id = emit(tenant)
    work()
    listed = client.get(f"/api/v1/webhooks/{endpoint_id}/deliveries", headers=headers).json
    [delivery] = listed["data"]
    assert delivery["eventId"] == event_id and delivery["eventType"] == "document.created"
    assert delivery["status"] == "retrying"
    assert set(delivery["attempts"][0]) == {
        "at",
        "statusCode",
        "latencyMs",
        "error",
        "responseExcerpt",
    }
    path = f"/api/v1/webhooks/{endpoint_id}/deliveries/{delivery['id']}/retry"
    retried = client.post(path, headers=headers)
    assert retried.status_code == 202, retried.json
    work()
    after = client.get(
        f"/api/v1/webhooks/{endpoint_id}/deliveries?status=succeeded", headers=headers
    ).json["data"]
    assert [d["id"] for d in after] == [delivery["id"]]
    assert after[0]["attemptCount"] == 2
    # A failed delivery gets one more attempt on request.
    receiver.answer(Answer(200))
    assert client.post(path, headers=headers).status_code == 202
    work()
    assert len(receiver.requests) == 3


def test_a_large_event_carries_ids_only(receiver, make_endpoint, emit, work, tenant):
    make_endpoint(tenant, receiver.url())
    big = {"document": {"id": "doc_1", "text": "x" * (300 * 1024)}, "actorId": "key_1"}
    emit(tenant, "document.updated", big)
    work()
    body = receiver.requests[0].body
    assert len(body) < 256 * 1024
    assert json.loads(body)["data"] == {
        "document": {"id": "doc_1"},
        "actorId": "key_1",
        "truncated": True,
    }


def test_an_endpoint_failing_for_five_days_is_disabled(
    client, headers, receiver, make_endpoint, emit, work, reconcile, tenant, deliveries_of
):
    receiver.default = Answer(500)
    endpoint_id, _ = make_endpoint(tenant, receiver.url())
    clock.freeze(T0)
    emit(tenant)
    work()
    clock.freeze(T0 + timedelta(days=4, hours=23))
    emit(tenant)
    work()
    assert client.get(f"/api/v1/webhooks/{endpoint_id}", headers=headers).json["data"]["enabled"]
    clock.freeze(T0 + timedelta(days=5))
    reconcile()
    work()
    endpoint = client.get(f"/api/v1/webhooks/{endpoint_id}", headers=headers).json["data"]
    assert endpoint["enabled"] is False
    assert "5 days" in endpoint["disabledReason"]
    assert {d["status"] for d in deliveries_of(endpoint_id)} == {"failed"}


def test_a_success_restarts_the_five_days(
    receiver, make_endpoint, emit, work, tenant, client, headers
):
    receiver.answer(Answer(500), Answer(200), Answer(500))
    endpoint_id, _ = make_endpoint(tenant, receiver.url())
    clock.freeze(T0)
    emit(tenant)
    work()
    clock.freeze(T0 + timedelta(days=3))
    emit(tenant)
    work()
    clock.freeze(T0 + timedelta(days=6))
    emit(tenant)
    work()
    assert client.get(f"/api/v1/webhooks/{endpoint_id}", headers=headers).json["data"]["enabled"]

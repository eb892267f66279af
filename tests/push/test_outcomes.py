"""What the providers' answers do: a dead token removes the subscription (each channel's own
way of saying so), an outage retries with backoff (Retry-After within reason) until it
succeeds or the attempts run out, garbage and hanging providers are an outage or a refusal
but never an error of ours, and the API never waits for any of it."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime, timedelta

import pytest

import clock
from tests.helpers import audit_actions
from tests.push.conftest import APNS_TOKEN, FCM_TOKEN
from tests.push.fakes import Reply

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
JSON = {"Content-Type": "application/json"}
# A provider that hangs holds its answer this long (or until the fake stops): far beyond the
# push timeout, so "finished in under half of it" cannot pass by a slow machine's luck, nor
# fail by one.
HANGS = 60


def _fcm_error(status: int, code: str, message: str, detail: str | None = None) -> Reply:
    error = {"code": status, "message": message, "status": code}
    if detail:
        kind = "type.googleapis.com/google.firebase.fcm.v1.FcmError"
        error["details"] = [{"@type": kind, "errorCode": detail}]
    return Reply(status, json.dumps({"error": error}).encode(), JSON)


def _apns_error(status: int, reason: str) -> Reply:
    return Reply(status, json.dumps({"reason": reason}).encode(), JSON)


def _device(providers, platform: str):
    if platform == "ios":
        return APNS_TOKEN, providers.apns
    if platform == "android":
        return FCM_TOKEN, providers.fcm
    return json.dumps(providers.browser.subscription(providers.web_endpoint())), providers.web


def _subscriptions(app, user) -> list[str]:
    from services.push import devices

    with app.app_context():
        return [s.id for s in devices.for_user(user.tenant_id, user.id)]


DEAD_TOKENS = [
    ("ios", _apns_error(410, "Unregistered")),
    ("ios", _apns_error(400, "BadDeviceToken")),
    ("ios", _apns_error(400, "DeviceTokenNotForTopic")),
    ("android", _fcm_error(404, "NOT_FOUND", "Requested entity was not found.", "UNREGISTERED")),
    (
        "android",
        _fcm_error(
            400,
            "INVALID_ARGUMENT",
            "The registration token is not a valid FCM registration token",
            "INVALID_ARGUMENT",
        ),
    ),
    ("web", Reply(410, b"push subscription has unsubscribed or expired")),
    ("web", Reply(404, b"not found")),
]


@pytest.mark.parametrize(("platform", "reply"), DEAD_TOKENS)
def test_a_dead_token_removes_the_subscription(
    app, providers, subscribe, notify, work, deliveries, person, tenant, platform, reply
):
    token, fake = _device(providers, platform)
    fake.answer(reply)
    subscription_id = subscribe(person, platform, token)
    notification_id = notify(person)
    work()
    [delivery] = deliveries(notification_id)
    assert delivery.status == "failed" and delivery.subscription_id is None
    assert str(reply.status) in delivery.error
    assert _subscriptions(app, person) == []
    assert audit_actions(app, tenant.id)[-1] == "push.unsubscribed"
    notify(person, "later")  # nothing left to push to
    work()
    assert len([r for r in fake.requests if r.path != "/token"]) == 1
    assert subscription_id


def test_invalid_argument_about_the_message_keeps_the_device(
    app, providers, subscribe, notify, work, deliveries, person
):
    providers.fcm.answer(_fcm_error(400, "INVALID_ARGUMENT", "Invalid JSON payload received."))
    subscribe(person, "android", FCM_TOKEN)
    notification_id = notify(person)
    work()
    [delivery] = deliveries(notification_id)
    assert delivery.status == "failed" and "INVALID_ARGUMENT" in delivery.error
    assert len(_subscriptions(app, person)) == 1


@pytest.mark.parametrize("platform", ["ios", "android", "web"])
def test_an_outage_is_retried_with_backoff_then_delivered(
    app, providers, subscribe, notify, work, deliveries, person, release_scheduled, platform
):
    token, fake = _device(providers, platform)
    fake.answer(Reply(503, b"<html>down for maintenance</html>"))
    subscribe(person, platform, token)
    clock.freeze(T0)
    notification_id = notify(person)
    work()
    [delivery] = deliveries(notification_id)
    assert delivery.status == "retrying" and delivery.attempt_count == 1
    assert delivery.next_attempt_at == T0 + timedelta(seconds=30)
    assert "503" in delivery.error
    clock.freeze(T0 + timedelta(seconds=29))
    release_scheduled()
    work()  # not due yet: the claim refuses it
    assert deliveries(notification_id)[0].attempt_count == 1
    clock.freeze(T0 + timedelta(seconds=30))
    _requeue_due(app)
    work()
    [delivery] = deliveries(notification_id)
    assert delivery.status == "delivered" and delivery.attempt_count == 2
    assert delivery.error is None and delivery.next_attempt_at is None


def _requeue_due(app) -> int:
    """The reconciler's sweep (its own job is booked for later)."""
    from services.core import transaction
    from services.push import deliveries

    with app.app_context():
        return transaction.transactional(deliveries.reconcile)()


def test_retry_after_is_honoured_within_reason(
    app, providers, subscribe, notify, work, deliveries, person
):
    providers.fcm.answer(
        _fcm_error(429, "RESOURCE_EXHAUSTED", "Quota exceeded."),
    )
    providers.fcm.script[0].headers["Retry-After"] = "300"
    subscribe(person, "android", FCM_TOKEN)
    clock.freeze(T0)
    first = notify(person, "first")
    work()
    assert deliveries(first)[0].next_attempt_at == T0 + timedelta(minutes=5)
    providers.apns.answer(Reply(503, b"", {"Retry-After": "86400"}))
    subscribe(person, "ios", APNS_TOKEN)
    second = notify(person, "second")
    work()
    apns = next(d for d in deliveries(second) if d.push_channel == "apns")
    assert apns.next_attempt_at == T0 + timedelta(minutes=30)  # a day is capped


def test_the_attempts_run_out_then_failed(
    app, providers, subscribe, notify, work, deliveries, person, release_scheduled
):
    providers.apns.default = Reply(500, b"")
    subscribe(person, "ios", APNS_TOKEN)
    clock.freeze(T0)
    notification_id = notify(person)
    work()
    at = T0
    for delay in (30, 120, 600, 1800):
        at += timedelta(seconds=delay)
        clock.freeze(at)
        release_scheduled()
        work()
    [delivery] = deliveries(notification_id)
    assert delivery.status == "failed" and delivery.attempt_count == 5
    assert delivery.error.startswith("gave up after 5 attempts")
    assert len(providers.apns.requests) == 5
    assert len(_subscriptions(app, person)) == 1  # an outage is no reason to forget a device


@pytest.mark.parametrize(
    ("reply", "status"),
    [
        (Reply(200, b"\x00\xffnot json at all"), "delivered"),  # APNs: 200 is all that counts
        (Reply(400, b"<html>bad gateway</html>"), "failed"),
        (Reply(502, b"{" * 5000), "retrying"),
        (Reply(403, json.dumps({"reason": ["not", "a", "string"]}).encode()), "failed"),
    ],
)
def test_garbage_from_the_provider(
    app, providers, subscribe, notify, work, deliveries, person, reply, status
):
    providers.apns.answer(reply)
    subscribe(person, "ios", APNS_TOKEN)
    notification_id = notify(person)
    work()
    [delivery] = deliveries(notification_id)
    assert delivery.status == status
    assert len(_subscriptions(app, person)) == 1


def test_garbage_from_the_token_endpoint_is_an_outage(
    app, providers, subscribe, notify, work, deliveries, person
):
    providers.fcm.handler = lambda received: Reply(200, b"<html>captive portal</html>")
    subscribe(person, "android", FCM_TOKEN)
    notification_id = notify(person)
    work()
    [delivery] = deliveries(notification_id)
    assert delivery.status in ("retrying", "failed")
    assert "token endpoint" in delivery.error
    assert len(_subscriptions(app, person)) == 1


@pytest.mark.parametrize("platform", ["ios", "android"])
def test_a_provider_that_hangs_times_out_and_retries(
    providers, subscribe, notify, work, deliveries, person, platform
):
    token, fake = _device(providers, platform)
    fake.answer(Reply(200, b"{}", hold=HANGS))
    subscribe(person, platform, token)
    notification_id = notify(person)
    started = time.monotonic()
    work()
    # DMS_PUSH_TIMEOUT_SECONDS is 1 here: the worker gave up long before the provider answered
    assert time.monotonic() - started < HANGS / 2
    [delivery] = deliveries(notification_id)
    assert delivery.status == "retrying" and "Timeout" in delivery.error


def test_the_api_never_waits_for_a_provider(
    app, client, providers, subscribe, notify, work, deliveries, person, person_headers
):
    providers.apns.default = Reply(200, b"", hold=HANGS)
    started = time.monotonic()
    created = client.post(
        "/api/v1/push/subscriptions",
        headers=person_headers,
        json={"Platform": "ios", "DeviceToken": APNS_TOKEN},
    )
    notification_id = notify(person)
    assert time.monotonic() - started < HANGS / 2
    assert created.status_code == 201
    assert providers.apns.requests == []  # the push waits for a worker
    [delivery] = deliveries(notification_id)
    assert delivery.status == "pending" and delivery.job_id


def test_a_duplicate_job_pushes_once(app, providers, subscribe, notify, work, deliveries, person):
    from services.core import queue

    subscribe(person, "ios", APNS_TOKEN)
    notification_id = notify(person)
    [delivery] = deliveries(notification_id)
    with app.app_context():
        queue.enqueue("jobs.push.deliver", delivery.id)
    work()
    assert len(providers.apns.requests) == 1
    assert deliveries(notification_id)[0].attempt_count == 1


def test_a_lost_job_is_found_by_the_reconciler(
    app, providers, subscribe, notify, work, deliveries, person
):
    from services.core import queue

    subscribe(person, "android", FCM_TOKEN)
    notification_id = notify(person)
    with app.app_context():  # the jobs lost between the commit and the worker
        queue.queue().empty()
    work()
    assert deliveries(notification_id)[0].status == "pending"
    assert _requeue_due(app) == 1
    work()
    assert deliveries(notification_id)[0].status == "delivered"
    assert _requeue_due(app) == 0


def test_the_reconciler_books_itself_while_deliveries_are_open(
    app, providers, subscribe, notify, release_scheduled, person
):
    subscribe(person, "ios", APNS_TOKEN)
    notify(person)
    assert "jobs.push.reconcile" in release_scheduled()


def test_an_unsubscribed_device_gets_nothing_still_queued(
    app, client, providers, subscribe, notify, work, deliveries, person, person_headers
):
    subscription_id = subscribe(person, "ios", APNS_TOKEN)
    notification_id = notify(person)
    gone = client.delete(f"/api/v1/push/subscriptions/{subscription_id}", headers=person_headers)
    assert gone.status_code == 204
    work()
    [delivery] = deliveries(notification_id)
    assert delivery.status == "failed" and delivery.error == "the device was unsubscribed"
    assert providers.apns.requests == []

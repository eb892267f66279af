"""Notifications pushed to devices through the fake providers: what each provider receives
(HTTP/2 and a verifiable JWT for APNs, an OAuth token from the service account for FCM, an
aes128gcm body the browser decrypts and a VAPID header for Web Push), every payload with
`pushChannel`, and what the deliveries record."""

from __future__ import annotations

import json

from joserfc import jwt
from joserfc.jwk import ECKey

from tests.push.conftest import ACCESS_TOKEN, APNS_TOKEN, APNS_TOPIC, FCM_PROJECT, FCM_TOKEN

COMMON = {
    "type": "workflow.approval_waiting",
    "title": "Approval waiting",
    "body": "Invoice 42 waits for your approval.",
    "data": {"workflowInstanceId": "wfi_1"},
}


def test_apns_gets_an_http2_push_with_a_provider_token(
    providers, subscribe, notify, work, deliveries, person, app
):
    subscribe(person, "ios", APNS_TOKEN.upper())
    notification_id = notify(person)
    assert providers.apns.requests == []  # nothing is pushed before the worker runs
    work()
    [request] = providers.apns.requests
    assert request.http_version == "2"
    assert request.path == f"/3/device/{APNS_TOKEN}"
    assert request.headers["apns-topic"] == APNS_TOPIC
    assert request.headers["apns-push-type"] == "alert"
    scheme, _, token = request.headers["authorization"].partition(" ")
    assert scheme == "bearer"
    decoded = jwt.decode(token, ECKey.import_key(providers.apns_key.public_key()), ["ES256"])
    assert decoded.header == {"alg": "ES256", "kid": "ABC123DEFG", "typ": "JWT"} or (
        decoded.header["kid"] == "ABC123DEFG" and decoded.header["alg"] == "ES256"
    )
    assert decoded.claims["iss"] == "TEAM123456"
    payload = json.loads(request.body)
    assert payload["aps"]["alert"] == {"title": COMMON["title"], "body": COMMON["body"]}
    assert payload["pushChannel"] == "apns" and payload["notificationId"] == notification_id
    assert {k: payload[k] for k in COMMON} == COMMON
    [delivery] = deliveries(notification_id)
    assert delivery.status == "delivered" and delivery.push_channel == "apns"
    assert delivery.attempt_count == 1 and delivery.error is None

    from services.push import deliveries_by_notification

    with app.app_context():
        [out] = deliveries_by_notification(person.tenant_id, [notification_id])[notification_id]
        assert deliveries_by_notification("globex", [notification_id]) == {notification_id: []}
        wire = out.model_dump(by_alias=True)
        assert set(wire) == {"pushChannel", "status", "at"}
        assert wire["pushChannel"] == "apns" and wire["status"] == "delivered"
        assert wire["at"].endswith("Z")


def test_the_provider_token_is_minted_once_and_reused(providers, subscribe, notify, work, person):
    subscribe(person, "ios", APNS_TOKEN)
    notify(person, "one")
    notify(person, "two")
    work()
    first, second = providers.apns.requests
    assert first.headers["authorization"] == second.headers["authorization"]


def test_fcm_gets_a_v1_message_with_the_service_accounts_token(
    providers, subscribe, notify, work, deliveries, person
):
    subscribe(person, "android", FCM_TOKEN)
    notification_id = notify(person)
    work()
    [token_request, request] = providers.fcm.requests
    assert token_request.path == "/token"
    assert providers.token_requests[0]["iss"] == f"push@{FCM_PROJECT}.iam.gserviceaccount.com"
    assert request.path == f"/v1/projects/{FCM_PROJECT}/messages:send"
    assert request.headers["authorization"] == f"Bearer {ACCESS_TOKEN}"
    message = json.loads(request.body)["message"]
    assert message["token"] == FCM_TOKEN
    assert message["notification"] == {"title": COMMON["title"], "body": COMMON["body"]}
    data = message["data"]
    assert all(isinstance(v, str) for v in data.values())  # FCM's data map is strings only
    assert data["pushChannel"] == "fcm" and data["notificationId"] == notification_id
    assert json.loads(data["data"]) == COMMON["data"]
    [delivery] = deliveries(notification_id)
    assert delivery.status == "delivered" and delivery.push_channel == "fcm"


def test_web_push_is_encrypted_for_the_browser_and_signed_with_vapid(
    providers, subscribe, notify, work, deliveries, person
):
    subscribe(person, "web", json.dumps(providers.browser.subscription(providers.web_endpoint())))
    notification_id = notify(person)
    work()
    [request] = providers.web.requests
    assert request.path == "/push/abc123"
    assert request.headers["ttl"] == "86400"
    assert request.headers["content-type"] == "application/octet-stream"
    [payload] = providers.browser.received  # decrypted with the browser's private key
    assert payload["pushChannel"] == "webpush" and payload["notificationId"] == notification_id
    assert {k: payload[k] for k in COMMON} == COMMON
    [delivery] = deliveries(notification_id)
    assert delivery.status == "delivered" and delivery.push_channel == "webpush"


def test_every_device_of_the_person_and_nobody_elses(
    providers, subscribe, notify, work, deliveries, person, tenant, other_tenant, create_user
):
    colleague = create_user(tenant, "member")
    stranger = create_user(other_tenant, "member")
    subscribe(person, "ios", APNS_TOKEN)
    subscribe(person, "android", FCM_TOKEN)
    subscribe(colleague, "ios", "ff" * 32)
    subscribe(stranger, "ios", APNS_TOKEN)  # the same device in another tenant: its own row
    notification_id = notify(person)
    work()
    assert [r.path for r in providers.apns.requests] == [f"/3/device/{APNS_TOKEN}"]
    assert len([r for r in providers.fcm.requests if r.path.endswith(":send")]) == 1
    assert sorted(d.push_channel for d in deliveries(notification_id)) == ["apns", "fcm"]


def test_an_unconfigured_channel_is_recorded_not_raised(
    app, providers, subscribe, notify, work, deliveries, person, monkeypatch
):
    monkeypatch.setitem(app.config, "DMS_FCM_CREDENTIALS", None)
    subscribe(person, "android", FCM_TOKEN)
    subscribe(person, "ios", APNS_TOKEN)
    notification_id = notify(person)
    work()
    statuses = {d.push_channel: (d.status, d.error) for d in deliveries(notification_id)}
    assert statuses["fcm"] == ("unconfigured", "fcm is not configured on this server")
    assert statuses["apns"] == ("delivered", None)
    assert providers.fcm.requests == []


def test_a_person_without_devices_gets_no_delivery(providers, notify, work, deliveries, person):
    notification_id = notify(person)
    work()
    assert deliveries(notification_id) == []


def test_a_large_notification_is_cut_to_the_providers_limit(
    providers, subscribe, notify, work, deliveries, person
):
    subscribe(person, "ios", APNS_TOKEN)
    subscribe(person, "web", providers.browser.subscription(providers.web_endpoint()))
    notification_id = notify(person, data={"blob": "x" * 10_000})
    work()
    [request] = providers.apns.requests
    assert len(request.body) <= 4096
    payload = json.loads(request.body)
    assert payload["truncated"] is True and payload["data"] == {}
    assert payload["pushChannel"] == "apns" and payload["notificationId"] == notification_id
    [web] = providers.browser.received
    assert web["truncated"] is True and web["pushChannel"] == "webpush"
    assert {d.status for d in deliveries(notification_id)} == {"delivered"}

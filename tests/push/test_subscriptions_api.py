"""POST/GET/DELETE /api/v1/push/subscriptions: validation per platform (with the field named),
one subscription per device, a device that changes hands, people only (API keys refused),
scopes, another person's or tenant's subscription is a 404, and endpoints the SSRF rules
refuse."""

from __future__ import annotations

import ipaddress
import json
import os
import socket

import pytest

from config import WEBPUSH_HOSTS
from extensions import db
from models import PushSubscription
from services.core.outbound import refusal_reason
from tests.helpers import audit_actions, auth_headers, bearer, user_token
from tests.push.conftest import APNS_TOKEN, FCM_TOKEN, Browser, b64url

API = "/api/v1/push/subscriptions"


def _post(client, headers, platform, token):
    return client.post(API, headers=headers, json={"Platform": platform, "DeviceToken": token})


def _refusal(response, field: str) -> str:
    assert response.status_code == 422, response.get_json()
    error = response.get_json()["errors"][0]
    assert error["code"] == "VALIDATION_ERROR" and error["field"] == field, error
    return error["message"]


def test_subscribe_then_again_is_one_subscription(client, providers, person_headers, app, tenant):
    created = _post(client, person_headers, "ios", APNS_TOKEN)
    assert created.status_code == 201, created.get_json()
    data = created.get_json()["data"]
    assert data["id"].startswith("psh_") and data["platform"] == "ios"
    assert data["tokenHint"] == f"…{APNS_TOKEN[-6:]}" and data["lastDeliveredAt"] is None
    assert data["createdAt"].endswith("Z")
    assert APNS_TOKEN not in created.get_data(as_text=True)  # never echoed whole
    assert created.headers["Location"].endswith(f"{API}/{data['id']}")
    again = _post(client, person_headers, "ios", APNS_TOKEN.upper())  # the same device
    assert again.status_code == 200 and again.get_json()["data"]["id"] == data["id"]
    listed = client.get(API, headers=person_headers).get_json()
    assert [s["id"] for s in listed["data"]] == [data["id"]]
    assert listed["meta"]["pagination"]["hasMore"] is False
    assert audit_actions(app, tenant.id).count("push.subscribed") == 1


def test_web_subscription_as_a_string_or_an_object_is_one_device(client, providers, person_headers):
    subscription = providers.browser.subscription(providers.web_endpoint("/push/device-1"))
    created = _post(client, person_headers, "web", json.dumps(subscription))
    assert created.status_code == 201, created.get_json()
    assert created.get_json()["data"]["tokenHint"] == "127.0.0.1 …vice-1"
    assert providers.browser.p256dh not in created.get_data(as_text=True)
    again = _post(client, person_headers, "web", subscription)
    assert again.status_code == 200
    assert again.get_json()["data"]["id"] == created.get_json()["data"]["id"]


def test_android_token(client, providers, person_headers):
    created = _post(client, person_headers, "android", FCM_TOKEN)
    assert created.status_code == 201 and created.get_json()["data"]["platform"] == "android"


def _web(providers, **changes) -> dict:
    subscription = providers.browser.subscription(providers.web_endpoint())
    keys = {**subscription["keys"], **changes.pop("keys", {})}
    return {**subscription, **changes, "keys": keys}


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


INVALID = [
    ("ios", "a1b2" * 15, "64 hexadecimal"),
    ("ios", "g" * 64, "64 hexadecimal"),
    ("ios", APNS_TOKEN + "00", "64 hexadecimal"),
    ("ios", 12345, "string"),
    ("ios", ["a"], "string"),
    ("ios", "", "empty"),
    ("ios", " " * 3, "empty"),
    ("ios", None, "string"),
    ("android", "short:token", "FCM registration token"),
    ("android", FCM_TOKEN.replace("_", " "), "FCM registration token"),
    ("android", "a" * 1025, "FCM registration token"),
    ("android", FCM_TOKEN + "<script>", "FCM registration token"),
    ("android", "x" * 5000, "at most 4096"),
    ("web", "not json", "JSON object"),
    ("web", '["https://example.com"]', "web push subscription is"),
    ("web", _nested(1000), "JSON object"),
    ("web", "{}", "endpoint"),
    ("web", 3.5, "string, or for web a JSON object"),
]


@pytest.mark.parametrize(("platform", "token", "words"), INVALID)
def test_invalid_device_tokens_name_the_field(
    client, providers, person_headers, platform, token, words
):
    message = _refusal(_post(client, person_headers, platform, token), "DeviceToken")
    assert words in message


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"keys": {"p256dh": b64url(b"\x04" + os.urandom(63))}}, "p256dh"),  # 64 bytes
        ({"keys": {"p256dh": b64url(b"\x04" + b"\x01" * 64)}}, "p256dh"),  # not on the curve
        ({"keys": {"p256dh": "!" * 87}}, "p256dh"),
        ({"keys": {"auth": b64url(os.urandom(15)) + "AAAA"}}, "auth"),
        ({"keys": {"auth": None}}, "auth"),
        ({"endpoint": "ftp://127.0.0.1/push"}, "https"),
        ({"endpoint": "https://evil.example/push"}, "not a push service"),
        ({"endpoint": 42}, "endpoint"),
        ({"endpoint": "https://127.0.0.1/" + "a" * 2000}, "endpoint"),
        ({"keys": {"p256dh": {"nested": {"deeper": [1, 2, 3]}}}}, "p256dh"),
    ],
)
def test_invalid_web_subscriptions_name_the_field(client, providers, person_headers, change, words):
    subscription = _web(providers, **change)
    for token in (subscription, json.dumps(subscription)):
        message = _refusal(_post(client, person_headers, "web", token), "DeviceToken")
        assert words in message


def test_an_oversized_web_subscription_is_refused(client, providers, person_headers):
    subscription = _web(providers, padding="x" * 5000)
    message = _refusal(_post(client, person_headers, "web", subscription), "DeviceToken")
    assert "4096" in message


def test_a_deeply_nested_body_is_refused_before_the_service(client, providers, person_headers):
    body = '{"Platform": "web", "DeviceToken": ' + '{"a":' * 300 + "1" + "}" * 300 + "}"
    response = client.post(
        API, headers={**person_headers, "Content-Type": "application/json"}, data=body
    )
    assert response.status_code == 400
    assert response.get_json()["errors"][0]["code"] == "INVALID_JSON"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"DeviceToken": APNS_TOKEN}, "Platform"),
        ({"Platform": "windows", "DeviceToken": APNS_TOKEN}, "Platform"),
        ({"Platform": "iOS", "DeviceToken": APNS_TOKEN}, "Platform"),
        ({"Platform": 1, "DeviceToken": APNS_TOKEN}, "Platform"),
        ({"Platform": "ios"}, "DeviceToken"),
        ({"platform": "ios", "deviceToken": APNS_TOKEN}, "Platform"),
    ],
)
def test_missing_or_wrong_fields(client, providers, person_headers, body, field):
    response = client.post(API, headers=person_headers, json=body)
    assert response.status_code == 422
    assert field in {e.get("field") for e in response.get_json()["errors"]}


def test_api_keys_are_refused_a_person_is_needed(client, providers, headers):
    for response in (
        _post(client, headers, "ios", APNS_TOKEN),
        client.get(API, headers=headers),
        client.delete(f"{API}/psh_01abc", headers=headers),
    ):
        assert response.status_code == 403
        assert response.get_json()["errors"][0]["code"] == "USER_CONTEXT_REQUIRED"


def test_scopes(app, client, providers, tenant, person):
    def token_with(scopes: list[str]) -> dict[str, str]:
        return auth_headers(user_token(app, person, scopes), tenant.id)

    reader = token_with(["notifications:read"])
    refused = _post(client, reader, "ios", APNS_TOKEN)
    assert refused.status_code == 403
    assert refused.get_json()["errors"][0]["code"] == "INSUFFICIENT_SCOPE"
    assert "notifications:write" in refused.get_json()["errors"][0]["message"]
    assert client.get(API, headers=reader).status_code == 200
    writer = token_with(["notifications:write"])
    created = _post(client, writer, "ios", APNS_TOKEN)
    assert created.status_code == 201
    assert client.get(API, headers=writer).status_code == 403
    deleted = client.delete(f"{API}/{created.get_json()['data']['id']}", headers=reader)
    assert deleted.status_code == 403


def test_another_persons_or_tenants_subscription_is_a_404(
    app, client, providers, tenant, other_tenant, person, person_headers, create_user
):
    colleague = create_user(tenant, "member")
    stranger = create_user(other_tenant, "admin")
    theirs = _post(client, bearer(app, tenant, colleague), "android", FCM_TOKEN)
    foreign = _post(client, bearer(app, other_tenant, stranger), "android", FCM_TOKEN)
    assert theirs.status_code == 201 and foreign.status_code == 201  # tenants never collide
    for subscription in (theirs, foreign):
        subscription_id = subscription.get_json()["data"]["id"]
        response = client.delete(f"{API}/{subscription_id}", headers=person_headers)
        assert response.status_code == 404
        assert response.get_json()["errors"][0]["code"] == "NOT_FOUND"
    assert client.get(API, headers=person_headers).get_json()["data"] == []
    listed = client.get(API, headers=bearer(app, other_tenant, stranger)).get_json()["data"]
    assert [s["id"] for s in listed] == [foreign.get_json()["data"]["id"]]


def test_delete_then_gone(app, client, providers, tenant, person_headers):
    created = _post(client, person_headers, "ios", APNS_TOKEN).get_json()["data"]
    deleted = client.delete(f"{API}/{created['id']}", headers=person_headers)
    assert deleted.status_code == 204 and deleted.get_data() == b""
    assert client.delete(f"{API}/{created['id']}", headers=person_headers).status_code == 404
    assert client.get(API, headers=person_headers).get_json()["data"] == []
    assert audit_actions(app, tenant.id)[-2:] == ["push.subscribed", "push.unsubscribed"]


def test_a_device_registered_by_another_person_moves_to_them(
    app, client, providers, tenant, person, person_headers, create_user, notify, deliveries
):
    first = _post(client, person_headers, "ios", APNS_TOKEN).get_json()["data"]
    queued = notify(person)  # still queued for the first holder when the device moves
    colleague = create_user(tenant, "member")
    moved = _post(client, bearer(app, tenant, colleague), "ios", APNS_TOKEN)
    assert moved.status_code == 201 and moved.get_json()["data"]["id"] != first["id"]
    assert client.get(API, headers=person_headers).get_json()["data"] == []
    assert client.delete(f"{API}/{first['id']}", headers=person_headers).status_code == 404
    [delivery] = deliveries(queued)
    assert delivery.subscription_id is None  # the new holder never gets the old one's push
    assert audit_actions(app, tenant.id)[-2:] == ["push.unsubscribed", "push.subscribed"]


def test_keyset_pagination(client, providers, person_headers):
    ids = []
    for n in range(3):
        token = f"{n:02d}" * 32
        ids.append(_post(client, person_headers, "ios", token).get_json()["data"]["id"])
    page = client.get(f"{API}?limit=2", headers=person_headers).get_json()
    assert [s["id"] for s in page["data"]] == ids[::-1][:2]
    cursor = page["meta"]["pagination"]["nextCursor"]
    rest = client.get(f"{API}?limit=2&cursor={cursor}", headers=person_headers).get_json()
    assert [s["id"] for s in rest["data"]] == [ids[0]]
    assert client.get(f"{API}?cursor=garbage", headers=person_headers).status_code == 400


# --- where web push may be sent --------------------------------------------------------------


def test_private_and_plain_http_endpoints_are_refused_unless_allowed(
    app, client, providers, person_headers, monkeypatch
):
    monkeypatch.setitem(app.config, "DMS_WEBPUSH_HOSTS", ["*"])
    monkeypatch.setitem(app.config, "DMS_WEBPUSH_ALLOW_PRIVATE", False)
    browser = Browser()
    for endpoint, words in [
        ("https://127.0.0.1/push", "loopback"),
        ("https://10.1.2.3/push", "private"),
        ("https://169.254.169.254/latest", "metadata"),
        ("https://[::ffff:127.0.0.1]/push", "loopback"),
        ("https://localhost/push", "this machine"),
        ("https://127.1/push", "loopback"),  # IPv4 as resolvers read it (inet_aton)
        ("https://0x7f000001/push", "loopback"),
        ("https://0xA9.0xFE.0xA9.0xFE/latest", "metadata"),
    ]:
        response = _post(client, person_headers, "web", browser.subscription(endpoint))
        assert words in _refusal(response, "DeviceToken"), endpoint
    monkeypatch.setitem(app.config, "DMS_WEBPUSH_ALLOW_HTTP", False)
    response = _post(client, person_headers, "web", browser.subscription("http://push.example/x"))
    assert "https" in _refusal(response, "DeviceToken")


def test_the_ssrf_guard_runs_again_when_pushing(
    app, providers, subscribe, notify, work, deliveries, person, monkeypatch
):
    subscribe(person, "web", providers.browser.subscription(providers.web_endpoint()))
    monkeypatch.setitem(app.config, "DMS_WEBPUSH_ALLOW_PRIVATE", False)  # the operator tightens
    notification_id = notify(person)
    work()
    [delivery] = deliveries(notification_id)
    assert delivery.status == "failed" and "loopback" in delivery.error
    assert providers.web.requests == []


def test_a_name_resolving_to_a_private_address_is_refused_when_pushing(
    app, providers, subscribe, notify, work, deliveries, person, monkeypatch
):
    name = socket.gethostname()
    try:
        address = socket.gethostbyname(name)
    except OSError:
        pytest.skip("this machine's name does not resolve")

    if refusal_reason(ipaddress.ip_address(address)) is None:
        pytest.skip("this machine's name resolves to a public address")
    monkeypatch.setitem(app.config, "DMS_WEBPUSH_HOSTS", ["*"])
    port = providers.web.url.rsplit(":", 1)[1]
    subscribe(person, "web", providers.browser.subscription(f"http://{name}:{port}/push/x"))
    monkeypatch.setitem(app.config, "DMS_WEBPUSH_ALLOW_PRIVATE", False)
    notification_id = notify(person)
    work()
    [delivery] = deliveries(notification_id)
    assert delivery.status == "failed" and "resolves to" in delivery.error
    assert providers.web.requests == []


def test_the_openapi_document_describes_the_routes(client):
    spec = client.get("/api/v1/openapi.json").get_json()
    path = spec["paths"]["/api/v1/push/subscriptions"]
    body = path["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert set(path) >= {"get", "post"}
    assert (
        "204"
        in spec["paths"]["/api/v1/push/subscriptions/{subscription_id}"]["delete"]["responses"]
    )
    assert body


def test_a_host_that_only_looks_like_a_push_service_is_refused(
    app, client, providers, person_headers, monkeypatch
):
    monkeypatch.setitem(app.config, "DMS_WEBPUSH_HOSTS", WEBPUSH_HOSTS.split(","))
    browser = Browser()
    for host in ("fcm.googleapis.com.evil.example", "evilfcm.googleapis.com", "googleapis.com"):
        response = _post(client, person_headers, "web", browser.subscription(f"https://{host}/x"))
        assert "not a push service" in _refusal(response, "DeviceToken"), host
    good = _post(
        client,
        person_headers,
        "web",
        browser.subscription("https://fcm.googleapis.com/fcm/send/abc"),
    )
    assert good.status_code == 201


def test_fresh_keys_for_a_known_endpoint_replace_the_old_ones(
    app, client, providers, person_headers
):
    endpoint = providers.web_endpoint()
    first = _post(client, person_headers, "web", Browser().subscription(endpoint))
    renewed = Browser()
    again = _post(client, person_headers, "web", renewed.subscription(endpoint))
    assert again.status_code == 200
    assert again.get_json()["data"]["id"] == first.get_json()["data"]["id"]
    with app.app_context():
        row = db.session.get(PushSubscription, first.get_json()["data"]["id"])
        assert json.loads(row.token)["keys"]["p256dh"] == renewed.p256dh

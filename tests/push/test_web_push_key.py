"""GET /api/v1/push/web-push-key: what a browser needs to subscribe (the VAPID public key as
applicationServerKey), null where Web Push is not configured; a person's call."""

from __future__ import annotations

from cryptography.hazmat.primitives import serialization

from tests.push.conftest import b64url

PATH = "/api/v1/push/web-push-key"


def test_the_browser_gets_the_vapid_public_key(client, providers, person_headers):
    response = client.get(PATH, headers=person_headers)
    assert response.status_code == 200
    expected = providers.vapid_key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    assert response.get_json()["data"] == {"publicKey": b64url(expected)}


def test_null_without_web_push_and_a_person_is_needed(
    app, client, person_headers, headers, monkeypatch
):
    monkeypatch.setitem(app.config, "DMS_VAPID_PRIVATE_KEY", None)
    assert client.get(PATH, headers=person_headers).get_json()["data"] == {"publicKey": None}
    by_key = client.get(PATH, headers=headers)
    assert by_key.status_code == 403
    assert by_key.get_json()["errors"][0]["code"] == "USER_CONTEXT_REQUIRED"

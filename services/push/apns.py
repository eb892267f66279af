"""APNs: one push over HTTP/2 (httpx with h2) with token authentication, to
`{DMS_APNS_URL}/3/device/{token}`. Apple's answers, by what they mean for us: 200 delivered;
410 Unregistered, 400 BadDeviceToken or DeviceTokenNotForTopic: the token is dead; 429 and 5xx:
try later; 403 ExpiredProviderToken: mint a new JWT and try later; anything else: refused."""

from __future__ import annotations

from services.core import lazy
from services.push import credentials
from services.push.credentials import ApnsSettings
from services.push.payloads import Answer, Message, Verdict, dumps, fields
from services.push.transport import error_text, reason_of, retry_after, timeout

httpx = lazy.module("httpx")  # loads with the first outbound call

CHANNEL = "apns"
DEAD_TOKEN_REASONS = {"BadDeviceToken", "DeviceTokenNotForTopic", "Unregistered"}
EXPIRY_SECONDS = 24 * 3600


def body(message: Message) -> bytes:
    """`aps` for the system, and the common fields beside it for the app."""
    payload = fields(message, CHANNEL)
    alert = {"title": payload["title"], "body": payload["body"]}
    return dumps({"aps": {"alert": alert, "mutable-content": 1}, **payload})


def send(settings: ApnsSettings, device_token: str, message: Message, now: float) -> Answer:
    headers = {
        "authorization": f"bearer {credentials.apns_token(settings)}",
        "apns-topic": settings.topic,
        "apns-push-type": "alert",
        "apns-priority": "10",
        "apns-expiration": str(int(now) + EXPIRY_SECONDS),
        "apns-collapse-id": message.id[:64],
        "content-type": "application/json",
    }
    url = f"{settings.url.rstrip('/')}/3/device/{device_token}"
    # http1=False: HTTP/2 only (ALPN h2 over TLS; prior knowledge on a plain-http test URL).
    try:
        with httpx.Client(http1=False, http2=True, timeout=timeout()) as client:
            response = client.post(url, content=body(message), headers=headers)
    except httpx.HTTPError as exc:
        return Answer(Verdict.RETRY, error_text(exc))
    return verdict(settings, response)


def verdict(settings: ApnsSettings, response: httpx.Response) -> Answer:
    status = response.status_code
    if status == 200:
        return Answer.delivered()
    reason = reason_of(response, lambda doc: doc.get("reason"))
    error = f"APNs {status} {reason or ''}".strip()
    if status == 410 or reason in DEAD_TOKEN_REASONS:
        return Answer(Verdict.INVALID_TOKEN, error)
    if status == 403 and reason == "ExpiredProviderToken":
        credentials.forget_apns_token(settings)
        return Answer(Verdict.RETRY, error)
    if status == 429 or status >= 500:
        return Answer(Verdict.RETRY, error, retry_after(response))
    return Answer(Verdict.FAILED, error)

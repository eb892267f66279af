"""FCM HTTP v1: one message to one registration token, POST
`{DMS_FCM_URL}/v1/projects/{project}/messages:send` with a service account's OAuth token.
FCM's answers: 200 delivered; 404 UNREGISTERED, or 400 INVALID_ARGUMENT about the token: the
token is dead; 429 and 5xx: try later (Retry-After honoured); 401: a new OAuth token, later;
anything else (403 SENDER_ID_MISMATCH, a bad message): refused."""

from __future__ import annotations

from typing import Any

import orjson

from services.core import lazy
from services.push import credentials
from services.push.credentials import FcmSettings
from services.push.payloads import Answer, Message, Verdict, dumps, fields
from services.push.transport import error_text, reason_of, retry_after, timeout

httpx = lazy.module("httpx")  # loads with the first outbound call
google_errors = lazy.module("google.auth.exceptions")

CHANNEL = "fcm"
TTL = "86400s"


def body(device_token: str, message: Message) -> bytes:
    """A notification for the system tray, and the common fields as `data` (FCM's data
    values are strings: `data` itself travels as JSON text)."""
    payload = fields(message, CHANNEL)
    data = {k: v if isinstance(v, str) else orjson.dumps(v).decode() for k, v in payload.items()}
    return dumps(
        {
            "message": {
                "token": device_token,
                "notification": {"title": payload["title"], "body": payload["body"]},
                "data": data,
                "android": {"priority": "high", "ttl": TTL, "collapse_key": message.id[:64]},
            }
        }
    )


def send(settings: FcmSettings, device_token: str, message: Message) -> Answer:
    project = credentials.fcm_project(settings)
    try:
        token = credentials.fcm_token(settings)
    except google_errors.TransportError as exc:
        return Answer(Verdict.RETRY, f"FCM token endpoint: {error_text(exc)}")
    except google_errors.RefreshError as exc:
        kind = Verdict.RETRY if exc.retryable else Verdict.FAILED
        return Answer(kind, f"FCM token endpoint: {error_text(exc)}")
    except (TypeError, ValueError, KeyError) as exc:  # google-auth chokes on a non-JSON answer
        return Answer(Verdict.RETRY, f"FCM token endpoint answered garbage: {error_text(exc)}")
    url = f"{settings.url.rstrip('/')}/v1/projects/{project}/messages:send"
    headers = {"authorization": f"Bearer {token}", "content-type": "application/json"}
    try:
        with httpx.Client(timeout=timeout()) as client:
            response = client.post(url, content=body(device_token, message), headers=headers)
    except httpx.HTTPError as exc:
        return Answer(Verdict.RETRY, error_text(exc))
    return verdict(settings, response)


def _error_code(document: dict[str, Any]) -> str | None:
    """FcmError's errorCode from `details`, else the google.rpc status."""
    error = document.get("error") or {}
    for detail in error.get("details") or []:
        if isinstance(detail, dict) and detail.get("errorCode"):
            return detail["errorCode"]
    return error.get("status")


def verdict(settings: FcmSettings, response: httpx.Response) -> Answer:
    status = response.status_code
    if status == 200:
        return Answer.delivered()
    code = reason_of(response, _error_code)
    message = reason_of(response, lambda doc: (doc.get("error") or {}).get("message")) or ""
    error = f"FCM {status} {code or ''} {message}".strip()[:500]
    if status == 404 or code == "UNREGISTERED":
        return Answer(Verdict.INVALID_TOKEN, error)
    if status == 400 and code == "INVALID_ARGUMENT" and "token" in message.lower():
        return Answer(Verdict.INVALID_TOKEN, error)
    if status == 401:
        credentials.forget_fcm_token(settings)
        return Answer(Verdict.RETRY, error)
    if status == 429 or status >= 500:
        return Answer(Verdict.RETRY, error, retry_after(response))
    return Answer(Verdict.FAILED, error)

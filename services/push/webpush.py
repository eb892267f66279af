"""Web Push (RFC 8030) with VAPID (RFC 8292): pywebpush encrypts the payload for the browser
(aes128gcm, RFC 8291) and py-vapid signs the Authorization header; the POST itself goes out
through services/core/outbound.py, to the address the SSRF guard checked (the endpoint came
from a browser, so it is someone else's URL). The push service's answers: 2xx delivered; 404
and 410: the subscription is gone; 429 and 5xx: try later; anything else: refused."""

from __future__ import annotations

import base64
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization

from services.core import lazy, outbound
from services.push.payloads import Answer, Message, Verdict, dumps, fields
from services.push.tokens import PushOptions, endpoint_problem, web_subscription

# pywebpush and py_vapid (with aiohttp, about 40 MiB) load with the first Web Push message.
py_vapid = lazy.module("py_vapid")
pywebpush = lazy.module("pywebpush")

CHANNEL = "webpush"
TTL_SECONDS = 24 * 3600
VAPID_SECONDS = 12 * 3600
# The name push services see on this service's requests: the one webhook receivers see too.
USER_AGENT = "dms-webhooks/1"


@dataclass(frozen=True)
class VapidSettings:
    private_key: str  # a PEM file's path, or the key itself (PEM, or raw base64url)
    subject: str  # mailto: or https: contact of the operator


def vapid_key(settings: VapidSettings) -> py_vapid.Vapid:
    value = settings.private_key.strip()
    if "\n" not in value and len(value) < 512 and Path(value).is_file():
        return py_vapid.Vapid.from_file(value)
    return py_vapid.Vapid.from_string(value)


def public_key(settings: VapidSettings) -> str:
    """The VAPID public key as browsers take it for `applicationServerKey`: the uncompressed
    P-256 point, base64url without padding."""
    point = vapid_key(settings).public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return base64.urlsafe_b64encode(point).rstrip(b"=").decode()


def body(message: Message) -> bytes:
    return dumps(fields(message, CHANNEL))


def send(settings: VapidSettings, stored: str, message: Message, options: PushOptions) -> Answer:
    subscription = web_subscription(stored)
    endpoint = subscription["endpoint"]
    problem = endpoint_problem(endpoint, options)  # the operator's rules may have changed
    if problem:
        return Answer(Verdict.FAILED, f"endpoint {problem}")
    parts = urlsplit(endpoint)
    claims = {
        "sub": settings.subject,
        "aud": f"{parts.scheme}://{parts.netloc}",
        "exp": int(time.time()) + VAPID_SECONDS,
    }
    try:
        encrypted = pywebpush.WebPusher(subscription).encode(body(message), "aes128gcm")
        authorization = vapid_key(settings).sign(claims)["Authorization"]
    except (pywebpush.WebPushException, py_vapid.VapidException, ValueError) as exc:
        return Answer(Verdict.FAILED, f"{type(exc).__name__}: {exc}"[:500])
    try:
        target = outbound.resolve(endpoint, allow_private=options.allow_private)
    except outbound.AddressRefused as exc:
        return Answer(Verdict.FAILED, str(exc)[:500])
    headers = {
        "Content-Type": "application/octet-stream",
        "User-Agent": USER_AGENT,
        "Content-Encoding": "aes128gcm",
        "TTL": str(TTL_SECONDS),
        "Urgency": "normal",
        "Authorization": authorization,
    }
    outcome = outbound.post(target, headers, encrypted["body"])
    status = outcome.status_code
    if status is None:
        return Answer(Verdict.RETRY, outcome.error)
    error = f"Web Push {status} {(outcome.excerpt or '')[:200]}".strip()
    if 200 <= status < 300:
        return Answer.delivered()
    if status in (404, 410):
        return Answer(Verdict.INVALID_TOKEN, error)
    if status == 429 or status >= 500:
        return Answer(Verdict.RETRY, error, outcome.retry_after)
    return Answer(Verdict.FAILED, error)

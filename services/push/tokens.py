"""What a device token may be, per platform (CONTRACT §9, docs/push.md): an APNs token of 64
hex characters, an FCM registration token, or a browser's Web Push subscription (endpoint and
keys) given as a JSON string or an object. Each parses to the form we store, the identity that
makes a device one subscription, and the hint people see instead of the token."""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import orjson
import pydantic_core
from cryptography.hazmat.primitives.asymmetric import ec
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from errors import DomainError
from models.push import Platform
from services.core.outbound import MAX_URL_LENGTH, url_problem

FIELD = "DeviceToken"
MAX_TOKEN_CHARS = 4096  # a web subscription's JSON; APNs and FCM tokens are far shorter
_APNS = re.compile(r"[0-9a-fA-F]{64}")
# FCM registration tokens: base64url characters with a ':' between the instance id and the
# token proper (older GCM ones start "APA91b"); about 150-250 characters today.
_FCM = re.compile(r"[A-Za-z0-9_\-:]{100,1024}")
_B64URL = re.compile(r"[A-Za-z0-9_\-]+={0,2}")
HINT_CHARS = 6


@dataclass(frozen=True)
class PushOptions:
    """The operator's rules for Web Push endpoints (config: DMS_WEBPUSH_*)."""

    allow_http: bool = False
    allow_private: bool = False
    hosts: tuple[str, ...] = ()  # host suffixes, or ("*",) for any host


@dataclass(frozen=True)
class DeviceToken:
    platform: str
    stored: str  # what the provider needs, as kept in the row
    identity: str  # what makes two registrations the same device
    hint: str

    @property
    def token_hash(self) -> str:
        return hashlib.sha256(f"{self.platform}:{self.identity}".encode()).hexdigest()


class WebPushKeys(BaseModel):
    model_config = ConfigDict(extra="ignore")

    p256dh: str = Field(min_length=80, max_length=100)
    auth: str = Field(min_length=16, max_length=30)


class WebPushSubscription(BaseModel):
    """`PushSubscription.toJSON()` as browsers give it."""

    model_config = ConfigDict(extra="ignore")

    endpoint: str = Field(min_length=1, max_length=MAX_URL_LENGTH)
    expirationTime: int | float | None = None  # the browser's name
    keys: WebPushKeys


def _refuse(message: str) -> DomainError:
    return DomainError(422, "VALIDATION_ERROR", f"{FIELD}: {message}", FIELD)


def parse(platform: str, raw: Any, options: PushOptions) -> DeviceToken:
    """The token of `platform`, checked; a 422 naming DeviceToken otherwise."""
    if platform == Platform.WEB.value:
        return _web(raw, options)
    if not isinstance(raw, str):
        raise _refuse(f"a {platform} device token is a string.")
    token = raw.strip()
    if platform == Platform.IOS.value:
        if not _APNS.fullmatch(token):
            raise _refuse("an APNs device token is 64 hexadecimal characters.")
        token = token.lower()
    elif platform == Platform.ANDROID.value:
        if not _FCM.fullmatch(token):
            raise _refuse(
                "an FCM registration token is 100 to 1024 characters of A-Z a-z 0-9 - _ :."
            )
    else:
        raise DomainError(422, "VALIDATION_ERROR", "Platform: ios, android or web.", "Platform")
    return DeviceToken(platform, token, token, f"…{token[-HINT_CHARS:]}")


def _web(raw: Any, options: PushOptions) -> DeviceToken:
    if isinstance(raw, str):
        if len(raw) > MAX_TOKEN_CHARS:
            raise _refuse(f"at most {MAX_TOKEN_CHARS} characters.")
        try:
            raw = pydantic_core.from_json(raw)
        except ValueError:
            raise _refuse(
                "a web push subscription is a JSON object (as a string or not)."
            ) from None
    if not isinstance(raw, Mapping):
        raise _refuse('a web push subscription is {"endpoint": …, "keys": {"p256dh", "auth"}}.')
    if len(orjson.dumps(raw)) > MAX_TOKEN_CHARS:
        raise _refuse(f"at most {MAX_TOKEN_CHARS} characters of JSON.")
    try:
        subscription = WebPushSubscription.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise _refuse(f"{where}: {first['msg']}") from None
    endpoint = subscription.endpoint.strip()
    problem = endpoint_problem(endpoint, options)
    if problem:
        raise _refuse(f"endpoint {problem}")
    p256dh = _b64url_bytes(subscription.keys.p256dh)
    if p256dh is None or len(p256dh) != 65 or p256dh[0] != 4 or not _on_p256(p256dh):
        raise _refuse("keys.p256dh is not an uncompressed P-256 public key (65 bytes, base64url).")
    auth = _b64url_bytes(subscription.keys.auth)
    if auth is None or len(auth) != 16:
        raise _refuse("keys.auth is not 16 bytes (base64url).")
    stored = {
        "endpoint": endpoint,
        "keys": {"p256dh": _b64(p256dh), "auth": _b64(auth)},
    }
    host = urlsplit(endpoint).hostname or ""
    hint = f"{host} …{endpoint[-HINT_CHARS:]}"[:120]
    return DeviceToken(Platform.WEB.value, orjson.dumps(stored).decode(), endpoint, hint)


def endpoint_problem(endpoint: str, options: PushOptions) -> str | None:
    """Why this Web Push endpoint may not be called (URL rules and the host allowlist), or
    None. The SSRF guard runs again on every attempt, when the name is resolved."""
    problem = url_problem(
        endpoint, allow_http=options.allow_http, allow_private=options.allow_private
    )
    if problem:
        return problem
    host = (urlsplit(endpoint).hostname or "").rstrip(".").lower()
    if not host_allowed(host, options.hosts):
        return f"host {host} is not a push service this server sends to."
    return None


def host_allowed(host: str, allowed: tuple[str, ...]) -> bool:
    if "*" in allowed:
        return True
    return any(host == suffix or host.endswith(f".{suffix}") for suffix in allowed)


def web_subscription(stored: str) -> dict[str, Any]:
    """The stored subscription as pywebpush takes it."""
    return orjson.loads(stored)


def _b64url_bytes(value: str) -> bytes | None:
    value = value.strip()
    if not _B64URL.fullmatch(value):
        return None
    try:
        return base64.urlsafe_b64decode(value.rstrip("=") + "=" * (-len(value.rstrip("=")) % 4))
    except (binascii.Error, ValueError):
        return None


def _b64(value: bytes) -> str:
    return base64.urlsafe_b64encode(value).rstrip(b"=").decode()


def _on_p256(point: bytes) -> bool:
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        return False
    return True

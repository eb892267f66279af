"""The providers' credentials, made once and shared by every job through Redis: APNs' provider
token (a JWT signed ES256 with the team's .p8 key, which Apple wants renewed between 20 and 60
minutes, no more often) and FCM's OAuth access token (google-auth, from a service account,
valid an hour). Each job runs in a fresh work horse, so a process cache would mint one per
push; a Redis outage only means minting one more."""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import urllib3
from joserfc import jwt
from joserfc.jwk import ECKey
from redis.exceptions import RedisError

from extensions import redis_store
from services.core import lazy

# google-auth loads with the first FCM message.
google_urllib3 = lazy.module("google.auth.transport.urllib3")
service_account = lazy.module("google.oauth2.service_account")

log = logging.getLogger(__name__)

APNS_TOKEN_SECONDS = 40 * 60
FCM_SCOPE = "https://www.googleapis.com/auth/firebase.messaging"
TOKEN_TIMEOUT_SECONDS = 10.0


@dataclass(frozen=True)
class ApnsSettings:
    url: str
    key_path: str
    key_id: str
    team_id: str
    topic: str


@dataclass(frozen=True)
class FcmSettings:
    url: str
    credentials_path: str
    project_id: str | None


def apns_token(settings: ApnsSettings) -> str:
    """The current provider token (cached); ApnsSettings.key_path must name a .p8 PEM file."""

    def mint() -> tuple[str, float]:
        key = ECKey.import_key(_read(settings.key_path))
        header = {"alg": "ES256", "kid": settings.key_id}
        claims = {"iss": settings.team_id, "iat": int(time.time())}
        return jwt.encode(header, claims, key, algorithms=["ES256"]), APNS_TOKEN_SECONDS

    return _cached(f"apns:{settings.team_id}:{settings.key_id}", mint)


def forget_apns_token(settings: ApnsSettings) -> None:
    """APNs said ExpiredProviderToken: the next attempt mints a new one."""
    _forget(f"apns:{settings.team_id}:{settings.key_id}")


def fcm_project(settings: FcmSettings) -> str:
    return settings.project_id or _service_account(settings.credentials_path)["project_id"]


def fcm_token(settings: FcmSettings) -> str:
    """An OAuth access token for FCM, fetched from the service account's token_uri (google-auth
    raises google.auth.exceptions.RefreshError / TransportError when that fails)."""
    info = _service_account(settings.credentials_path)

    def mint() -> tuple[str, float]:
        credentials = service_account.Credentials.from_service_account_info(
            info, scopes=[FCM_SCOPE]
        )
        http = urllib3.PoolManager(
            timeout=urllib3.Timeout(total=TOKEN_TIMEOUT_SECONDS), retries=False
        )
        try:
            credentials.refresh(google_urllib3.Request(http))
        finally:
            http.clear()
        expiry = credentials.expiry.timestamp() if credentials.expiry else time.time() + 3600
        # google-auth's expiry is naive UTC; either way, keep it 5 minutes less than given.
        return credentials.token, max(60.0, min(3300.0, expiry - time.time() - 300))

    return _cached(f"fcm:{info.get('client_email', '')}", mint)


def forget_fcm_token(settings: FcmSettings) -> None:
    """FCM answered 401: the token was revoked or expired early."""
    _forget(f"fcm:{_service_account(settings.credentials_path).get('client_email', '')}")


def _service_account(path: str) -> dict:
    return _service_account_at(path, Path(path).stat().st_mtime)


@cache
def _service_account_at(path: str, _mtime: float) -> dict:
    return json.loads(_read(path))


def _read(path: str) -> bytes:
    return Path(path).read_bytes()


def _key(name: str) -> str:
    return redis_store.key("push", "credential", hashlib.sha256(name.encode()).hexdigest()[:32])


def _cached(name: str, mint: Callable[[], tuple[str, float]]) -> str:
    key = _key(name)
    try:
        value = redis_store.client.get(key)
    except RedisError as exc:
        log.warning("push credential cache unreachable", extra={"error": str(exc)})
        value = None
    if value:
        return value.decode() if isinstance(value, bytes) else value
    token, seconds = mint()
    with contextlib.suppress(RedisError):  # if not kept, minted again next time
        redis_store.client.set(key, token, ex=max(1, int(seconds)))
    return token


def _forget(name: str) -> None:
    with contextlib.suppress(RedisError):
        redis_store.client.delete(_key(name))

"""WebAuthn challenges kept on the server: random, single use and short lived. Each options
call stores one in Redis under an opaque id the client presents back with its answer; taking
it deletes it (GETDEL), so a second verify of the same answer finds nothing to match."""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass

from redis.exceptions import RedisError

from errors import DomainError
from extensions import redis_store

REGISTRATION = "registration"
AUTHENTICATION = "authentication"
TTL_SECONDS = 5 * 60
_ID_RE = re.compile(r"^[A-Za-z0-9_-]{20,64}$")


@dataclass(frozen=True)
class Challenge:
    ceremony: str  # REGISTRATION | AUTHENTICATION
    value: bytes
    tenant_id: str
    user_id: str | None  # who registers, or who the sign-in named by email (else anyone)


def issue(ceremony: str, tenant_id: str, user_id: str | None = None) -> tuple[str, bytes]:
    """A new challenge for `ceremony`: (its id for the client, its bytes for the options)."""
    challenge_id = secrets.token_urlsafe(24)
    value = secrets.token_bytes(32)
    record = {"ceremony": ceremony, "value": value.hex(), "tenant": tenant_id, "user": user_id}
    try:
        redis_store.client.set(_key(challenge_id), json.dumps(record), ex=TTL_SECONDS)
    except RedisError as error:
        raise _unavailable() from error
    return challenge_id, value


def take(challenge_id: str, ceremony: str) -> Challenge | None:
    """The challenge, removed so it can never be used again; None when it is unknown, expired,
    already taken or belongs to the other ceremony."""
    if not _ID_RE.match(challenge_id or ""):
        return None
    try:
        raw = redis_store.client.getdel(_key(challenge_id))
    except RedisError as error:
        raise _unavailable() from error
    if raw is None:
        return None
    record = json.loads(raw)
    if record.get("ceremony") != ceremony:
        return None
    return Challenge(ceremony, bytes.fromhex(record["value"]), record["tenant"], record["user"])


def _key(challenge_id: str) -> str:
    return redis_store.key("passkey-challenge", challenge_id)


def _unavailable() -> DomainError:
    return DomainError(
        503,
        "SERVICE_UNAVAILABLE",
        "Passkey sign-in is unavailable for a moment (its challenge store cannot be reached).",
        headers={"Retry-After": "5"},
    )

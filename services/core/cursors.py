"""Pagination cursors (CONTRACT §5): opaque, itsdangerous-signed, timestamped with the
service clock (valid for an hour), bound to what they page (tenant, resource, sort, filters)
and carrying the keyset position. The API and the portal's lists both use them."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from flask import current_app
from itsdangerous import BadSignature, SignatureExpired, TimestampSigner, URLSafeTimedSerializer

import clock
from errors import DomainError

CURSOR_MAX_AGE = 3600  # spec 3 and 8.2: a cursor is valid for 1 hour


class _ClockSigner(TimestampSigner):
    def get_timestamp(self) -> int:  # the service clock, so tests can age cursors
        return int(clock.now().timestamp())


def _serializer() -> URLSafeTimedSerializer:
    """The app's cursor serializer, built once (it keeps no state between calls)."""
    extensions = current_app.extensions
    if "dms.cursors" not in extensions:
        extensions["dms.cursors"] = URLSafeTimedSerializer(
            current_app.config["SECRET_KEY"], salt="dms.cursor.v1", signer=_ClockSigner
        )
    return extensions["dms.cursors"]


def binding_of(tenant_id: str, **params: Any) -> str:
    """A short digest of what a cursor is only valid for: tenant, sort and filters."""
    canonical = json.dumps([tenant_id, params], sort_keys=True, default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()[:24]


def encode_cursor(binding: str, position: Sequence[Any]) -> str:
    return _serializer().dumps({"b": binding, "p": list(position)})


def decode_cursor(token: str, binding: str) -> list[Any]:
    """The keyset position in `token`, or 400 INVALID_CURSOR / CURSOR_EXPIRED."""
    try:
        payload = _serializer().loads(token, max_age=CURSOR_MAX_AGE)
    except SignatureExpired:
        raise DomainError(
            400, "CURSOR_EXPIRED", "This cursor is more than an hour old; start again.", "cursor"
        ) from None
    except (BadSignature, ValueError, TypeError):
        raise DomainError(400, "INVALID_CURSOR", "This cursor is not valid.", "cursor") from None
    if not isinstance(payload, dict) or payload.get("b") != binding:
        raise DomainError(
            400,
            "INVALID_CURSOR",
            "This cursor belongs to another query (tenant, sort or filters differ).",
            "cursor",
        )
    position = payload.get("p")
    if not isinstance(position, list):
        raise DomainError(400, "INVALID_CURSOR", "This cursor is not valid.", "cursor")
    return position

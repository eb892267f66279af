"""Endpoint secrets and Standard Webhooks signatures (CONTRACT §7).

A receiver checks `HMAC-SHA256(secret, "id.timestamp.body")`, so we need the secret itself
when signing: it cannot be hashed like an API key. It is stored encrypted (Fernet) under a key
derived from SECRET_KEY, so a copy of the database alone does not give the secrets away
(docs/webhooks.md, "How secrets are kept")."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from flask import current_app

SECRET_PREFIX = "whsec_"  # noqa: S105  (the public prefix of Standard Webhooks secrets)
SECRET_BYTES = 32


def generate_secret() -> str:
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode()


def _fernet() -> Fernet:
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    cached = app.extensions.get("dms.webhook-fernet")
    if cached is None:
        key = HKDF(
            algorithm=hashes.SHA256(), length=32, salt=None, info=b"dms.webhook-secrets.v1"
        ).derive(app.config["SECRET_KEY"].encode())
        cached = app.extensions["dms.webhook-fernet"] = Fernet(base64.urlsafe_b64encode(key))
    return cached


def seal(secret: str) -> str:
    return _fernet().encrypt(secret.encode()).decode()


def unseal(sealed: str) -> str:
    """The secret back; raises ValueError when SECRET_KEY changed since it was sealed."""
    try:
        return _fernet().decrypt(sealed.encode()).decode()
    except InvalidToken:
        raise ValueError("webhook secret unreadable: SECRET_KEY changed; rotate it") from None


def sign(message_id: str, timestamp: int, body: bytes, secret: str) -> str:
    """`v1,<base64 HMAC-SHA256 of "id.timestamp.body">` with the secret's decoded bytes."""
    key = base64.b64decode(secret.removeprefix(SECRET_PREFIX))
    signed = f"{message_id}.{timestamp}.".encode() + body
    return "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()


def signature_header(message_id: str, timestamp: int, body: bytes, keys: list[str]) -> str:
    """Every current secret's signature, space-separated (two while a rotation overlaps)."""
    return " ".join(sign(message_id, timestamp, body, key) for key in keys)

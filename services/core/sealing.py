"""Secrets the service must read back (a TOTP seed), kept encrypted at rest: Fernet under a
key derived by HKDF from SECRET_KEY with one `purpose` each, the scheme webhook secrets use
(services/webhooks/signing.py), so a copy of the database alone gives nothing away. Keyed
digests of single-use codes come from a key derived the same way."""

from __future__ import annotations

import base64
import hashlib
import hmac

from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from flask import current_app


def _derive(purpose: str) -> bytes:
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    keys = app.extensions.setdefault("dms.sealing-keys", {})
    if purpose not in keys:
        keys[purpose] = HKDF(
            algorithm=hashes.SHA256(), length=32, salt=None, info=f"dms.{purpose}.v1".encode()
        ).derive(app.config["SECRET_KEY"].encode())
    return keys[purpose]


def seal(secret: str, purpose: str) -> str:
    return Fernet(base64.urlsafe_b64encode(_derive(purpose))).encrypt(secret.encode()).decode()


def unseal(sealed: str, purpose: str) -> str:
    """The secret back; raises ValueError when SECRET_KEY changed since it was sealed."""
    try:
        return Fernet(base64.urlsafe_b64encode(_derive(purpose))).decrypt(sealed.encode()).decode()
    except InvalidToken:
        raise ValueError(f"{purpose} unreadable: SECRET_KEY changed since it was sealed") from None


def keyed_digest(value: str, purpose: str) -> str:
    """HMAC-SHA256 (hex) of `value` under the purpose's key: a stored digest that a copy of
    the database cannot be searched against without SECRET_KEY."""
    return hmac.new(_derive(purpose), value.encode(), hashlib.sha256).hexdigest()

"""A mail account's password, kept the way webhook secrets are (services/webhooks/signing.py):
Fernet under a key derived from SECRET_KEY with HKDF, its own `info` so the two never share a
key. The IMAP login needs the password itself, so it cannot be hashed."""

from __future__ import annotations

import base64

from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from flask import current_app


def _fernet() -> Fernet:
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    cached = app.extensions.get("dms.mail-fernet")
    if cached is None:
        key = HKDF(
            algorithm=hashes.SHA256(), length=32, salt=None, info=b"dms.mail-passwords.v1"
        ).derive(app.config["SECRET_KEY"].encode())
        cached = app.extensions["dms.mail-fernet"] = Fernet(base64.urlsafe_b64encode(key))
    return cached


def seal(password: str) -> str:
    return _fernet().encrypt(password.encode()).decode()


def unseal(sealed: str) -> str:
    """The password back; raises ValueError when SECRET_KEY changed since it was sealed."""
    try:
        return _fernet().decrypt(sealed.encode()).decode()
    except InvalidToken:
        raise ValueError(
            "the stored password is unreadable (SECRET_KEY changed): set it again"
        ) from None

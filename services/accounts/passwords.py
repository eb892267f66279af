"""Password hashing with Argon2id (memory-hard), via argon2-cffi."""

from __future__ import annotations

from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

_hasher = PasswordHasher()


@cache
def _dummy_hash() -> str:
    """Verified against when no account matches, so unknown emails take as long as wrong
    passwords. Made on first use: hashing costs 64 MiB and ~50 ms, which an API-only web
    process should never pay at import."""
    return _hasher.hash("not-a-real-password")


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(password_hash: str | None, password: str) -> bool:
    try:
        return _hasher.verify(password_hash or _dummy_hash(), password) and bool(password_hash)
    except (VerificationError, InvalidHashError):
        return False

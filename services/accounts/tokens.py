"""User access tokens: signed JWTs (joserfc, HS256 with a key derived from SECRET_KEY),
issued and verified. services/oauth/tokens.py issues them with their refresh tokens; the API
accepts them beside API keys and reads the tenant claim as the fourth tenant source (spec
5.3). Symmetric on purpose: only this service verifies them (docs/oauth.md)."""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets

from joserfc import jwt
from joserfc.errors import JoseError
from joserfc.jwk import OctKey

import clock
from errors import DomainError
from models import User
from services.accounts.user_grants import UserGrant

ACCESS_TOKEN_LIFETIME = 3600  # spec 3: valid for 1 hour
ISSUER = "dms"


@functools.lru_cache(maxsize=4)
def _key(secret_key: str) -> OctKey:
    # A dedicated key per purpose, so a leak of one derived key does not sign sessions.
    derived = hmac.new(secret_key.encode(), b"dms.access-token.v1", hashlib.sha256).digest()
    return OctKey.import_key(derived)


def issue_access_token(
    user: User | UserGrant,
    scopes: list[str],
    secret_key: str,
    lifetime: int = ACCESS_TOKEN_LIFETIME,
    *,
    client_id: str = "first-party",
    family_id: str | None = None,
) -> str:
    issued = int(clock.now().timestamp())
    claims = {
        "iss": ISSUER,
        "sub": user.id,
        "tenant_id": user.tenant_id,
        "scope": " ".join(sorted(set(scopes))),
        "client_id": client_id,
        "iat": issued,
        "exp": issued + lifetime,
        "jti": secrets.token_urlsafe(12),
    }
    if family_id is not None:
        claims["fam"] = family_id
    return jwt.encode({"alg": "HS256", "typ": "at+jwt"}, claims, _key(secret_key))


def verify_access_token(token: str, secret_key: str) -> dict:
    """The token's claims, or a 401 DomainError (INVALID_TOKEN / TOKEN_EXPIRED)."""
    try:
        decoded = jwt.decode(token, _key(secret_key), algorithms=["HS256"])
    except (JoseError, ValueError, TypeError):
        raise DomainError(401, "INVALID_TOKEN", "The access token is not valid.") from None
    claims = decoded.claims
    if decoded.header.get("typ") != "at+jwt":  # only access tokens, never another JWT of ours
        raise DomainError(401, "INVALID_TOKEN", "The access token is not valid.")
    if claims.get("iss") != ISSUER or not isinstance(claims.get("sub"), str):
        raise DomainError(401, "INVALID_TOKEN", "The access token is not valid.")
    exp = claims.get("exp")
    if not isinstance(exp, int) or exp <= int(clock.now().timestamp()):
        raise DomainError(401, "TOKEN_EXPIRED", "The access token has expired.")
    return claims

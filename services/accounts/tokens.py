"""User access tokens: signed JWTs (joserfc, HS256 with a key derived from SECRET_KEY),
issued and verified. services/oauth/tokens.py issues them with their refresh tokens; the API
accepts them beside API keys and reads the tenant claim as the fourth tenant source (spec
5.3). Symmetric on purpose: only this service verifies them (docs/oauth.md).

The claims follow RFC 9068: `iss` and `aud` are the discovery document's `issuer` (this
service is both the authorization server and the resource), and a token is accepted only
with our issuer, our audience if it names any, an `iat` not ahead of our clock by more than
MAX_CLOCK_SKEW, an `exp` not past and not more than ACCESS_TOKEN_LIFETIME after `iat`, and a
family (`fam`); whether the family exists is the caller's check (api/auth.py)."""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets

from flask import current_app
from joserfc import jwt
from joserfc.errors import ExpiredTokenError, JoseError
from joserfc.jwk import OctKey
from joserfc.jwt import JWTClaimsRegistry

import clock
from errors import DomainError
from models import User
from services.accounts.user_grants import UserGrant

ACCESS_TOKEN_LIFETIME = 3600  # spec 3: valid for 1 hour
# How far a token's `iat` may lie ahead of this host's clock (another web host's clock).
MAX_CLOCK_SKEW = 60


def issuer(host_url: str) -> str:
    """The issuer identifier of tokens issued and accepted at `host_url` (the request's
    scheme://host[:port]/): DMS_ISSUER when configured, else that host's URL. The discovery
    document's `issuer` is the same value."""
    return current_app.config.get("DMS_ISSUER") or host_url.rstrip("/")


@functools.lru_cache(maxsize=4)
def _key(secret_key: str) -> OctKey:
    # A dedicated key per purpose, so a leak of one derived key does not sign sessions.
    derived = hmac.new(secret_key.encode(), b"dms.access-token.v1", hashlib.sha256).digest()
    return OctKey.import_key(derived)


def issue_access_token(
    user: User | UserGrant,
    scopes: list[str],
    secret_key: str,
    *,
    issuer: str,
    family_id: str,
    client_id: str = "first-party",
) -> str:
    issued = int(clock.now().timestamp())
    claims = {
        "iss": issuer,
        "aud": issuer,
        "sub": user.id,
        "tenant_id": user.tenant_id,
        "scope": " ".join(sorted(set(scopes))),
        "client_id": client_id,
        "iat": issued,
        "exp": issued + ACCESS_TOKEN_LIFETIME,
        "jti": secrets.token_urlsafe(12),
        "fam": family_id,
    }
    return jwt.encode({"alg": "HS256", "typ": "at+jwt"}, claims, _key(secret_key))


class _AccessTokenClaims(JWTClaimsRegistry):
    """joserfc's claim checks with `exp` exact (no leeway: the hour is the spec's) and
    MAX_CLOCK_SKEW of leeway on `iat` only."""

    def validate_iat(self, value: object) -> None:
        JWTClaimsRegistry(now=self.now, leeway=MAX_CLOCK_SKEW).validate_iat(value)


def _invalid() -> DomainError:
    return DomainError(401, "INVALID_TOKEN", "The access token is not valid.")


def verify_access_token(token: str, secret_key: str, issuer: str) -> dict:
    """The token's claims if it is one of ours for `issuer`, or a 401 DomainError
    (INVALID_TOKEN / TOKEN_EXPIRED)."""
    try:
        decoded = jwt.decode(token, _key(secret_key), algorithms=["HS256"])
    except (JoseError, ValueError, TypeError):
        raise _invalid() from None
    if decoded.header.get("typ") != "at+jwt":  # only access tokens, never another JWT of ours
        raise _invalid()
    claims = decoded.claims
    registry = _AccessTokenClaims(
        now=int(clock.now().timestamp()),
        iss={"essential": True, "value": issuer},
        aud={"value": issuer},  # optional; when present, it must name us
        sub={"essential": True},
        iat={"essential": True},
        exp={"essential": True},
    )
    try:
        registry.validate(claims)
    except ExpiredTokenError:
        raise DomainError(401, "TOKEN_EXPIRED", "The access token has expired.") from None
    except JoseError:
        raise _invalid() from None
    if claims["exp"] - claims["iat"] > ACCESS_TOKEN_LIFETIME:
        raise _invalid()
    if not isinstance(claims.get("fam"), str) or not isinstance(claims.get("tenant_id"), str):
        raise _invalid()
    return claims

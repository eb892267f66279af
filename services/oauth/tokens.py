"""Access and refresh tokens of people (spec 3: an access token lives an hour, a refresh token
rotates on each use), issued by the OAuth token endpoint, the API's login and passkey
sign-in alike.

A *family* is every refresh token descending from one sign-in or one code exchange. Each use
of a refresh token marks it rotated and issues the next of its family; presenting a rotated
one again means it was stolen or replayed, so the whole family is revoked (RFC 9700
§4.14.2). Access tokens carry their family (`fam`), and the API refuses the access tokens of a
revoked family at the next request, without SQL (the family's state is remembered under the
auth generation). Refresh tokens are opaque and stored as SHA-256 digests."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta

from flask import current_app
from sqlalchemy import func, select, update

import clock
from extensions import db
from models import OAuthToken
from models.base import new_id
from services.accounts import tokens as access_tokens
from services.accounts.user_grants import UserGrant
from services.core import auth_generation

FIRST_PARTY = "first-party"  # the client id of our own sign-ins (login, passkeys, portal)
REFRESH_LIFETIME = timedelta(days=30)
REFRESH_PREFIX = "dmsr_"
_FAMILIES = auth_generation.Memory("token-families")


@dataclass(frozen=True)
class TokenPair:
    access_token: str
    refresh_token: str
    scope: str
    expires_in: int = access_tokens.ACCESS_TOKEN_LIFETIME
    family_id: str = ""

    def as_dict(self) -> dict:
        """CONTRACT §9's token shape (the OAuth endpoint's body, the login's `data`)."""
        return {
            "access_token": self.access_token,
            "token_type": "Bearer",
            "expires_in": self.expires_in,
            "refresh_token": self.refresh_token,
            "scope": self.scope,
        }


def digest(refresh_token: str) -> str:
    return hashlib.sha256(refresh_token.encode()).hexdigest()


def new_refresh_token() -> str:
    return REFRESH_PREFIX + secrets.token_urlsafe(32)


def access_token_for(
    user: UserGrant, client_id: str, scopes: list[str], family_id: str, issuer: str
) -> str:
    return access_tokens.issue_access_token(
        user,
        scopes,
        current_app.config["SECRET_KEY"],
        issuer=issuer,
        client_id=client_id,
        family_id=family_id,
    )


def store_refresh_token(
    user: UserGrant, client_id: str, scope: str, refresh_token: str, family_id: str
) -> OAuthToken:
    now = clock.now()
    row = OAuthToken(
        tenant_id=user.tenant_id,
        family_id=family_id,
        client_id=client_id,
        user_id=user.id,
        refresh_hash=digest(refresh_token),
        scope=scope,
        issued_at=now,
        expires_at=now + REFRESH_LIFETIME,
    )
    db.session.add(row)
    db.session.flush()
    return row


def issue(user: UserGrant, client_id: str, scopes: list[str], *, issuer: str) -> TokenPair:
    """A new access token and refresh token, of a new family, for `issuer`
    (services/accounts/tokens.issuer)."""
    family = new_id("fam")
    scope = " ".join(sorted(set(scopes)))
    refresh = new_refresh_token()
    store_refresh_token(user, client_id, scope, refresh, family)
    return TokenPair(access_token_for(user, client_id, scopes, family, issuer), refresh, scope,
                     family_id=family)  # fmt: skip


def find_refresh(refresh_token: str) -> OAuthToken | None:
    if not refresh_token.startswith(REFRESH_PREFIX) or len(refresh_token) > 200:
        return None
    return db.session.scalar(
        select(OAuthToken).where(OAuthToken.refresh_hash == digest(refresh_token))
    )


def usable(row: OAuthToken | None) -> bool:
    return (
        row is not None
        and row.revoked_at is None
        and row.rotated_at is None
        and row.expires_at > clock.now()
    )


def mark_rotated(row: OAuthToken) -> None:
    now = clock.now()
    row.rotated_at = now
    row.last_used_at = now
    db.session.flush()


def revoke_family(family_id: str, reason: str) -> int:
    """Revoke every refresh token of the family, and with them its access tokens (refused
    from the next request on); returns how many refresh tokens were still live."""
    result = db.session.execute(
        update(OAuthToken)
        .where(OAuthToken.family_id == family_id, OAuthToken.revoked_at.is_(None))
        .values(revoked_at=clock.now(), revoked_reason=reason)
        .execution_options(synchronize_session=False)
    )
    auth_generation.mark_changed()  # a bulk UPDATE: the session hook cannot see it
    return result.rowcount or 0


def revoke_user_client(tenant_id: str, user_id: str, client_id: str, reason: str) -> list[str]:
    """Revoke every family of the user and client (consent revoked); returns the families."""
    families = list(
        db.session.scalars(
            select(OAuthToken.family_id)
            .where(
                OAuthToken.tenant_id == tenant_id,
                OAuthToken.user_id == user_id,
                OAuthToken.client_id == client_id,
                OAuthToken.revoked_at.is_(None),
            )
            .distinct()
        )
    )
    for family in families:
        revoke_family(family, reason)
    return families


def revoke_client(tenant_id: str, client_id: str, reason: str) -> None:
    """Revoke every family issued to a client (the app was deleted)."""
    families = db.session.scalars(
        select(OAuthToken.family_id)
        .where(
            OAuthToken.tenant_id == tenant_id,
            OAuthToken.client_id == client_id,
            OAuthToken.revoked_at.is_(None),
        )
        .distinct()
    )
    for family in list(families):
        revoke_family(family, reason)


def last_used(user_id: str, client_id: str):
    """When the user's tokens for this client were last issued or refreshed (or None)."""
    return db.session.scalar(
        select(func.max(func.coalesce(OAuthToken.last_used_at, OAuthToken.issued_at))).where(
            OAuthToken.user_id == user_id, OAuthToken.client_id == client_id
        )
    )


@dataclass(frozen=True)
class FamilyState:
    """What the API needs to know of a family: whose it is (None: no such family) and
    whether it was revoked."""

    user_id: str | None
    revoked: bool


def family_state(family_id: str, tenant_id: str, generation: str | None) -> FamilyState:
    """The tenant's family's owner and whether it was revoked (remembered per process under
    `generation`, which is `auth_generation.current()` read before any database read of the
    request). Every access token we issue belongs to a stored family, so a family with no
    row was never ours."""
    key = f"{tenant_id}:{family_id}"
    known = _FAMILIES.get(key, generation)
    if known is not auth_generation.MISSING:
        return known
    owner, revoked = db.session.execute(
        select(func.max(OAuthToken.user_id), func.count(OAuthToken.revoked_at)).where(
            OAuthToken.tenant_id == tenant_id, OAuthToken.family_id == family_id
        )
    ).one()
    state = FamilyState(owner, revoked > 0)
    if owner is not None:  # a new family's row is an insert, which renews no generation
        _FAMILIES.put(key, state, generation)
    return state

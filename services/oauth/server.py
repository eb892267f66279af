"""The OAuth 2.0 authorization server (authlib): authorization code with PKCE (S256 only),
refresh tokens that rotate on every use, and revocation (RFC 7009), over our own clients,
codes and token families. One server per app (tests build several).

What authlib does not do and this module adds: PKCE required for every client (a missing
or `plain` challenge is refused), a second use of a code revokes the tokens the first use
issued, and presenting an already rotated refresh token revokes its whole family (RFC 9700
§4.14.2); each of these is audited."""

from __future__ import annotations

import hashlib
from datetime import timedelta

from authlib.integrations.flask_oauth2 import AuthorizationServer
from authlib.oauth2.rfc6749 import ClientMixin, InvalidRequestError
from authlib.oauth2.rfc6749.grants import AuthorizationCodeGrant, RefreshTokenGrant
from authlib.oauth2.rfc6750 import BearerTokenGenerator
from authlib.oauth2.rfc7009 import RevocationEndpoint
from authlib.oauth2.rfc7636 import CodeChallenge
from flask import Flask, current_app, g
from sqlalchemy import select

import clock
from errors import DomainError
from extensions import db
from models import OAuthClient, OAuthCode, OAuthToken, User
from models.base import new_id
from services.accounts import roles
from services.accounts import tokens as access_tokens
from services.audit import audit_log
from services.core.actors import Actor
from services.oauth import clients, tokens

CODE_LIFETIME = timedelta(minutes=10)
_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "none"]


class AppClient(ClientMixin):
    """authlib's view of a registered app, or of our own first-party sign-ins (refresh only)."""

    def __init__(self, row: OAuthClient | None) -> None:
        self.row = row

    @property
    def tenant_id(self) -> str | None:
        return self.row.tenant_id if self.row else None

    def get_client_id(self) -> str:
        return self.row.id if self.row else tokens.FIRST_PARTY

    def get_default_redirect_uri(self) -> str | None:
        # Only an app with exactly one redirect URI may leave it out (RFC 6749 §3.1.2.3).
        if self.row and len(self.row.redirect_uris) == 1:
            return self.row.redirect_uris[0]
        return None

    def get_allowed_scope(self, scope: str | None) -> str:
        allowed = set(self.row.scopes) if self.row else set()
        return " ".join(sorted(allowed & set((scope or "").split())))

    def check_redirect_uri(self, redirect_uri: str) -> bool:
        return bool(self.row) and redirect_uri in self.row.redirect_uris  # exact match only

    def check_client_secret(self, client_secret: str) -> bool:
        return bool(self.row) and clients.secret_matches(self.row, client_secret)

    def check_endpoint_auth_method(self, method: str, endpoint: str) -> bool:
        if self.row and self.row.confidential:
            return method in ("client_secret_basic", "client_secret_post")
        return method == "none"

    def check_response_type(self, response_type: str) -> bool:
        return bool(self.row) and response_type == "code"

    def check_grant_type(self, grant_type: str) -> bool:
        if self.row is None:
            return grant_type == "refresh_token"
        return grant_type in ("authorization_code", "refresh_token")


class _Code:
    """authlib's view of a stored authorization code."""

    def __init__(self, row: OAuthCode) -> None:
        self.row = row
        self.code_challenge = row.code_challenge
        self.code_challenge_method = row.code_challenge_method

    def get_redirect_uri(self) -> str:
        return self.row.redirect_uri

    def get_scope(self) -> str:
        return self.row.scope


class _Refresh:
    """authlib's view of a stored refresh token."""

    def __init__(self, row: OAuthToken) -> None:
        self.row = row

    def check_client(self, client: AppClient) -> bool:
        return self.row.client_id == client.get_client_id()

    def get_scope(self) -> str:
        return self.row.scope

    def get_expires_in(self) -> int:
        return int(tokens.REFRESH_LIFETIME.total_seconds())

    def is_expired(self) -> bool:
        return self.row.expires_at <= clock.now()

    def is_revoked(self) -> bool:
        return self.row.revoked_at is not None or self.row.rotated_at is not None


class S256Only(CodeChallenge):
    """PKCE for every client, S256 only: a missing challenge or method, or `plain`, is
    refused (authlib alone accepts a request without PKCE and defaults to plain)."""

    SUPPORTED_CODE_CHALLENGE_METHOD = ["S256"]

    def validate_code_challenge(self, grant, redirect_uri):
        data = grant.request.payload.data
        if not data.get("code_challenge"):
            raise InvalidRequestError("PKCE is required: send 'code_challenge' (S256).")
        if data.get("code_challenge_method") != "S256":
            raise InvalidRequestError("'code_challenge_method' must be S256.")
        super().validate_code_challenge(grant, redirect_uri)


def _digest(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


def _system(label: str) -> Actor:
    return Actor.system(label)


class CodeGrant(AuthorizationCodeGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = _AUTH_METHODS

    def save_authorization_code(self, code: str, request) -> None:
        client: AppClient = request.client
        data = request.payload.data
        db.session.add(
            OAuthCode(
                tenant_id=client.tenant_id,
                code_hash=_digest(code),
                client_id=client.get_client_id(),
                user_id=request.user.id,
                # What the authorization request sent ("" when it left it out, as an app
                # with one registered URI may): the exchange must repeat it only if it was
                # sent (RFC 6749 §4.1.3).
                redirect_uri=request.payload.redirect_uri or "",
                # authlib re-validates the request when it answers and resets the scope to
                # the client's; narrow again to what the user's role allows.
                scope=_role_scope(request.scope, request.user),
                code_challenge=data["code_challenge"],
                code_challenge_method=data["code_challenge_method"],
                expires_at=clock.now() + CODE_LIFETIME,
            )
        )
        db.session.flush()

    def query_authorization_code(self, code: str, client: AppClient):
        row = db.session.scalar(select(OAuthCode).where(OAuthCode.code_hash == _digest(code)))
        if row is None or row.client_id != client.get_client_id():
            return None
        if row.used_at is not None:
            # Replayed: whoever holds it is not the client it was issued to, or it was
            # intercepted. Revoke what the first exchange issued (RFC 6749 §4.1.2).
            if row.family_id:
                tokens.revoke_family(row.family_id, "code-reuse")
            audit_log.record(
                row.tenant_id, _system("oauth"), "oauth.code_reused",
                target_type="oauth_client", target_id=row.client_id,
                details={"user": row.user_id, "family": row.family_id},
            )  # fmt: skip
            return None
        if row.expires_at <= clock.now():
            return None
        return _Code(row)

    def delete_authorization_code(self, authorization_code: _Code) -> None:
        # Kept, marked used: a second use must be recognised, not merely not found.
        authorization_code.row.used_at = clock.now()
        authorization_code.row.family_id = g.get("oauth_family")
        db.session.flush()

    def authenticate_user(self, authorization_code: _Code):
        return _active_user(authorization_code.row)


def _active_user(row) -> User | None:
    """The user a code or a refresh token was issued to, while active."""
    user = User.find_for_tenant(row.user_id, row.tenant_id)
    return user if user is not None and user.is_active else None


class RefreshGrant(RefreshTokenGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = _AUTH_METHODS
    INCLUDE_NEW_REFRESH_TOKEN = True  # the spec: a refresh token rotates on each use

    def authenticate_refresh_token(self, refresh_token: str):
        row = tokens.find_refresh(refresh_token)
        if row is None:
            return None
        if row.rotated_at is not None and row.revoked_at is None:
            revoked = tokens.revoke_family(row.family_id, "refresh-reuse")
            audit_log.record(
                row.tenant_id, _system("oauth"), "oauth.refresh_reused",
                target_type="user", target_id=row.user_id,
                details={"client": row.client_id, "family": row.family_id,
                         "revokedTokens": revoked},
            )  # fmt: skip
            return None
        if not tokens.usable(row):
            return None
        g.oauth_family = row.family_id
        return _Refresh(row)

    def authenticate_user(self, refresh_token: _Refresh):
        return _active_user(refresh_token.row)

    def revoke_old_credential(self, refresh_token: _Refresh) -> None:
        tokens.mark_rotated(refresh_token.row)


class Revocation(RevocationEndpoint):
    """RFC 7009: a refresh token or an access token; either revokes its whole family."""

    CLIENT_AUTH_METHODS = _AUTH_METHODS

    def query_token(self, token_string: str, token_type_hint: str | None):
        row = tokens.find_refresh(token_string)
        if row is not None:
            return _Refresh(row)
        try:
            claims = access_tokens.verify_access_token(
                token_string, current_app.config["SECRET_KEY"], g.oauth_issuer
            )
        except DomainError:
            return None  # unknown, expired or foreign tokens: nothing to revoke (RFC 7009 §2.2)
        family = claims.get("fam")
        row = db.session.scalar(select(OAuthToken).where(OAuthToken.family_id == family).limit(1))
        return _Refresh(row) if row is not None else None

    def revoke_token(self, token: _Refresh, request) -> None:
        tokens.revoke_family(token.row.family_id, "revoked-by-client")
        audit_log.record(
            token.row.tenant_id, _system("oauth"), "oauth.token_revoked",
            target_type="user", target_id=token.row.user_id,
            details={"client": token.row.client_id, "family": token.row.family_id},
        )  # fmt: skip


def _query_client(client_id: str) -> AppClient | None:
    """The app, unless the request's host names another tenant than the app's (views set
    `g.oauth_host_tenant` from tenancy): an app of one tenant never serves another's."""
    if client_id == tokens.FIRST_PARTY:
        return AppClient(None)
    row = clients.find_client(client_id)
    host = g.get("oauth_host_tenant")
    if row is None or (host is not None and row.tenant_id != host):
        return None
    return AppClient(row)


def _access_token(client: AppClient, grant_type: str, user: User, scope: str) -> str:
    # One family per code exchange; a refresh continues the family it came from.
    family = g.get("oauth_family") or new_id("fam")
    g.oauth_family = family
    return tokens.access_token_for(
        user, client.get_client_id(), scope.split(), family, g.oauth_issuer
    )


def _refresh_token(client: AppClient, grant_type: str, user: User, scope: str) -> str:
    return tokens.new_refresh_token()


def _save_token(token: dict, request) -> None:
    user: User = request.user
    client: AppClient = request.client
    tokens.store_refresh_token(
        user, client.get_client_id(), token.get("scope", ""), token["refresh_token"],
        g.oauth_family,
    )  # fmt: skip
    audit_log.record(
        user.tenant_id, Actor("user", user.id, user.email), "oauth.token_issued",
        target_type="oauth_client", target_id=client.get_client_id(),
        details={"grant": request.payload.grant_type, "scope": token.get("scope", "")},
    )  # fmt: skip


def init_app(app: Flask) -> None:
    server = AuthorizationServer(app, query_client=_query_client, save_token=_save_token)
    server.register_token_generator(
        "default",
        BearerTokenGenerator(
            _access_token,
            _refresh_token,
            lambda client, grant_type: access_tokens.ACCESS_TOKEN_LIFETIME,
        ),
    )
    server.register_grant(CodeGrant, [S256Only(required=True)])
    server.register_grant(RefreshGrant)
    server.register_endpoint(Revocation)
    app.extensions["dms.oauth_server"] = server


def server() -> AuthorizationServer:
    return current_app.extensions["dms.oauth_server"]


def narrow_to_role(grant, user: User) -> None:
    """What the user may grant: the app's scopes that were asked for AND the user's role's."""
    grant.request.scope = _role_scope(grant.request.scope, user)


def _role_scope(scope: str | None, user: User) -> str:
    allowed = roles.scopes_for(user.role)
    return " ".join(s for s in (scope or "").split() if s in allowed)

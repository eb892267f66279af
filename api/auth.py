"""Who is calling: the bearer credential (an API key or a user's access token), the tenant it
is for (spec 5.3, through tenancy.resolve_tenant) and its scopes.

Three hooks. `identify_caller` runs app-wide before the rate limiter, so that the limiter can
count the request against its tenant and credential; it keeps the outcome on `g`, a refusal
included. It trusts what this process remembers under the auth generation it last read;
`confirm_caller`, app-wide after the limiter, whose round trip to Redis brought the current
generation back, identifies the caller again if a change came in between.
`authenticate_request` runs before every API view (registered on the blueprint, so no route
can forget it) and raises that refusal, or lets the view run. Views declare `@public` to opt
out and `@require_scope(...)` to demand scopes."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import wraps
from typing import Any

from flask import Flask, current_app, g, request
from werkzeug.local import LocalProxy

import tenancy
from api import limits
from errors import DomainError
from models import Role
from services.accounts import roles, tokens, user_grants
from services.accounts.tenants import TenantRef
from services.accounts.user_grants import UserGrant
from services.core import auth_generation, transaction
from services.core.actors import Actor
from services.keys import api_keys, key_cache
from services.keys.allowlists import ip_allowed
from services.keys.key_cache import KeyGrant
from services.limits import usage
from services.oauth import tokens as oauth_tokens

MAX_CREDENTIAL_LENGTH = 4096
_BEARER_RE = re.compile(r"^Bearer[ ]+([^\s]+)\s*$", re.IGNORECASE)


@dataclass
class Credential:
    """An authenticated caller: an API key, or a user holding an access token."""

    kind: str  # "key" | "user"
    id: str
    tenant_id: str
    scopes: frozenset[str]
    label: str
    key: KeyGrant | None = None
    user: UserGrant | None = None
    claims: dict[str, Any] = field(default_factory=dict)

    @property
    def tenant(self) -> TenantRef | None:
        """The credential's own tenant, remembered with the key or the user."""
        if self.key is not None:
            return self.key.tenant
        return self.user.tenant if self.user is not None else None

    @property
    def is_admin(self) -> bool:
        """A person holding the tenant's admin role (an API key is never one)."""
        return self.kind == "user" and self.user is not None and self.user.role == Role.ADMIN

    def actor(self) -> Actor:
        return Actor(
            self.kind, self.id, self.label, g.get("client_ip"), request.headers.get("User-Agent")
        )


current_credential: Credential = LocalProxy(lambda: g.credential)  # type: ignore[assignment]


def init_app(app: Flask) -> None:
    """Register `identify_caller` app-wide; call before the rate limiter's init_app."""
    app.before_request(identify_caller)


def init_confirmation(app: Flask) -> None:
    """Register `confirm_caller` app-wide; call after the rate limiter's init_app."""
    app.before_request(confirm_caller)


def public(view: Callable) -> Callable:
    """Mark an API view as reachable without credentials (login, discovery documents)."""
    view.api_public = True  # type: ignore[attr-defined]
    return view


def any_credential(view: Callable) -> Callable:
    """Mark an API view as open to any valid credential, whatever its scopes (/me)."""
    view.api_any_credential = True  # type: ignore[attr-defined]
    return view


def require_scope(*scopes: str) -> Callable:
    """Refuse with 403 INSUFFICIENT_SCOPE unless the caller holds every scope named."""

    def decorator(view: Callable) -> Callable:
        @wraps(view)
        def wrapper(*args, **kwargs):
            missing = [s for s in scopes if s not in g.credential.scopes]
            if missing:
                raise DomainError(
                    403,
                    "INSUFFICIENT_SCOPE",
                    f"This call needs the scope {' and '.join(missing)}.",
                )
            return view(*args, **kwargs)

        wrapper.api_scopes = scopes  # type: ignore[attr-defined]
        return wrapper

    return decorator


def require_user(view: Callable) -> Callable:
    """Refuse with 403 USER_CONTEXT_REQUIRED unless a person is behind the request (a user's
    access token); an API key acts for a system, not for someone (approvals, passkeys)."""

    @wraps(view)
    def wrapper(*args, **kwargs):
        if g.credential.kind != "user":
            raise DomainError(
                403,
                "USER_CONTEXT_REQUIRED",
                "This call acts for a person: use a user's access token, not an API key.",
            )
        return view(*args, **kwargs)

    wrapper.api_user_required = True  # type: ignore[attr-defined]
    return wrapper


def _authenticated_view() -> bool:
    """An API view (not @public) is being called: its caller must be identified."""
    if tenancy.path_class().limits not in ("caller", "sign-in"):
        return False
    view = current_app.view_functions.get(request.endpoint or "")
    return view is not None and not getattr(view, "api_public", False)


def identify_caller() -> None:
    """App-wide, before the rate limiter: g.tenant and g.credential, or g.caller_error."""
    if not _authenticated_view():
        return
    try:
        with auth_generation.assuming():  # confirm_caller checks it before any view runs
            g.tenant, g.credential = resolve_caller()
    except DomainError as error:
        g.caller_error = error


def confirm_caller() -> None:
    """App-wide, after the rate limiter, whose round trip brought the auth generation back:
    when the caller was identified from memory that a change has since outdated, identify it
    again, from the database, and count the request again if its windows changed."""
    if auth_generation.confirmed():
        return
    charged = g.pop("rate_windows", None)
    for name in ("tenant", "credential", "caller_error"):
        g.pop(name, None)
    identify_caller()
    limits.recount(charged)


def authenticate_request() -> None:
    """before_request of the API blueprint: the caller identified above, or its refusal."""
    if not _authenticated_view():
        return
    error = g.pop("caller_error", None)
    if error is not None:
        raise error
    usage.record_request(g.tenant.id, g.credential.id)  # in memory; Redis gets it later


def resolve_caller() -> tuple[TenantRef, Credential]:
    """Credential first (a bad one is a 401 whatever the tenant), then the tenant."""
    credential = _credential_from_header()
    if credential is None:
        raise DomainError(401, "UNAUTHENTICATED", "Send 'Authorization: Bearer <API key>'.")
    claim = None
    if credential.kind == "user":
        value = credential.claims.get("tenant_id")
        claim = value if isinstance(value, str) else None
    tenant = tenancy.resolve_tenant(credential.tenant, claim)
    if tenant is None:
        raise DomainError(
            400,
            "TENANT_REQUIRED",
            "No tenant could be resolved: send the X-Tenant-Id header with your tenant id.",
        )
    if credential.tenant_id != tenant.id:
        raise DomainError(
            403, "TENANT_MISMATCH", f"This credential does not belong to tenant {tenant.id!r}."
        )
    if credential.key is not None:
        ip = tenancy.client_ip()
        if not ip_allowed(ip, credential.key.allowed_ips):
            raise DomainError(
                403, "IP_NOT_ALLOWED", f"Calls from {ip} are not on this key's allowlist."
            )
        if key_cache.use_is_due(credential.key.id):
            # Last-used is its own unit of work, before the view's.
            transaction.transactional(api_keys.record_use_of)(credential.key.id, tenant.id, ip)
    return tenant, credential


def _credential_from_header() -> Credential | None:
    header = request.headers.get("Authorization")
    if header is None:
        return None
    match = _BEARER_RE.match(header) if len(header) <= MAX_CREDENTIAL_LENGTH else None
    if match is None:
        raise DomainError(
            401,
            "INVALID_API_KEY",
            "The Authorization header must be 'Bearer <API key or access token>'.",
        )
    token = match.group(1)
    if token.startswith(api_keys.SECRET_PREFIX):
        return _key_credential(token)
    if token.count(".") == 2:
        return _token_credential(token)
    raise DomainError(401, "INVALID_API_KEY", "This API key is not valid.")


def _key_credential(secret: str) -> Credential:
    key = key_cache.lookup(secret)
    if key is None:
        raise DomainError(401, "INVALID_API_KEY", "This API key is not valid.")
    if key.revoked:
        raise DomainError(401, "API_KEY_REVOKED", "This API key has been revoked.")
    return Credential("key", key.id, key.tenant_id, key.scopes, key.name, key=key)


def _token_credential(token: str) -> Credential:
    """A user's access token: signature and claims (services/accounts/tokens.py), the user
    still active in the claimed tenant, its family theirs and not revoked; no SQL while
    nothing changed (auth generation)."""
    claims = tokens.verify_access_token(
        token, current_app.config["SECRET_KEY"], tokens.issuer(request.host_url)
    )
    generation = auth_generation.for_request()  # for the user and the family
    user = user_grants.lookup(claims["sub"], generation)
    if user is None or not user.active or user.tenant_id != claims["tenant_id"]:
        raise DomainError(401, "INVALID_TOKEN", "The access token is not valid.")
    family = oauth_tokens.family_state(claims["fam"], user.tenant_id, generation)
    if family.user_id != user.id:  # no such family, or another person's
        raise DomainError(401, "INVALID_TOKEN", "The access token is not valid.")
    if family.revoked:
        raise DomainError(401, "INVALID_TOKEN", "The access token has been revoked.")
    # What the token was granted, narrowed to what the user's role allows now.
    scopes = frozenset(str(claims.get("scope", "")).split()) & roles.scopes_for(user.role)
    return Credential("user", user.id, user.tenant_id, scopes, user.email, user=user, claims=claims)

"""Who is calling and for which tenant: credentials, tenant resolution (spec 5.3) and scopes.

`authenticate_request` runs before every API view (registered on the blueprint, so no
route can forget it); views declare `@public` to opt out and `@require_scope(...)` to
demand scopes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import wraps
from typing import Any

from flask import current_app, g, request
from werkzeug.local import LocalProxy

from errors import DomainError
from extensions import db
from models import ApiKey, User
from services import api_keys, key_cache, tenants, tokens, usage
from services.actors import Actor
from services.key_cache import KeyGrant, TenantRef
from services.network import client_ip, ip_allowed

MAX_CREDENTIAL_LENGTH = 4096
_BEARER_RE = re.compile(r"^Bearer[ ]+([^\s]+)\s*$", re.IGNORECASE)
_TENANT_HEADER_RE = re.compile(r"^[a-z0-9][a-z0-9-]{1,62}$")
_RESERVED_SUBDOMAINS = {"www", "api", "app", "admin", "portal"}


@dataclass
class Credential:
    """An authenticated caller: an API key, or a user holding an access token."""

    kind: str  # "key" | "user"
    id: str
    tenant_id: str
    scopes: frozenset[str]
    label: str
    key: KeyGrant | None = None
    user: User | None = None
    claims: dict[str, Any] = field(default_factory=dict)

    @property
    def tenant(self) -> TenantRef | None:
        """The credential's own tenant when it came with it (API keys), else None."""
        return self.key.tenant if self.key is not None else None

    def actor(self) -> Actor:
        return Actor(self.kind, self.id, self.label, g.get("client_ip"), _user_agent())


current_tenant: TenantRef = LocalProxy(lambda: g.tenant)  # type: ignore[assignment]
current_credential: Credential = LocalProxy(lambda: g.credential)  # type: ignore[assignment]


def _user_agent() -> str | None:
    return request.headers.get("User-Agent")


def request_client_ip() -> str:
    if "client_ip" not in g:
        g.client_ip = client_ip(
            request.remote_addr,
            request.headers.get("X-Forwarded-For"),
            current_app.config["DMS_TRUSTED_PROXY_COUNT"],
        )
    return g.client_ip


def public(view: Callable) -> Callable:
    """Mark an API view as reachable without credentials (login, discovery documents)."""
    view.api_public = True  # type: ignore[attr-defined]
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


def authenticate_request() -> None:
    """before_request of the API blueprint: sets g.tenant and g.credential or raises."""
    view = current_app.view_functions.get(request.endpoint or "")
    if view is None or getattr(view, "api_public", False):
        return
    from api.rate_limits import limit_caller, limit_refused_caller

    try:
        g.tenant, g.credential = resolve_caller()
    except DomainError as error:
        limit_refused_caller(error)  # per client IP; a 429 replaces the refusal when over
        raise
    limit_caller(g.tenant, g.credential)  # before counting usage: a 429 is not usage
    usage.record_request(g.tenant.id, g.credential.id)  # in memory; Redis gets it later


def resolve_caller() -> tuple[TenantRef, Credential]:
    """Credential first (a bad one is a 401 whatever the tenant), then the tenant."""
    credential = _credential_from_header()
    tenant = _resolve_tenant(credential)
    if credential is None:
        raise DomainError(401, "UNAUTHENTICATED", "Send 'Authorization: Bearer <API key>'.")
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
        ip = request_client_ip()
        if not ip_allowed(ip, credential.key.allowed_ips):
            raise DomainError(
                403, "IP_NOT_ALLOWED", f"Calls from {ip} are not on this key's allowlist."
            )
        if key_cache.use_is_due(credential.key.id):
            key_row = db.session.get(ApiKey, credential.key.id)
            if key_row is not None:  # gone with its tenant since it was remembered
                api_keys.record_use(key_row, ip)
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
    claims = tokens.verify_access_token(token, current_app.config["SECRET_KEY"])
    user = db.session.get(User, claims["sub"])
    if user is None or not user.is_active or user.tenant_id != claims.get("tenant_id"):
        raise DomainError(401, "INVALID_TOKEN", "The access token is not valid.")
    scopes = frozenset(str(claims.get("scope", "")).split())
    return Credential("user", user.id, user.tenant_id, scopes, user.email, user=user, claims=claims)


def _resolve_tenant(credential: Credential | None) -> TenantRef | None:
    """Spec 5.3, highest first: subdomain, custom domain, X-Tenant-Id, the token's claim.

    The first source present decides; a source naming no existing tenant is an error
    rather than a fall-through, so a typo never silently selects another tenant.
    """
    host = request.host.split(":", 1)[0].lower().rstrip(".")
    base = current_app.config["DMS_BASE_DOMAIN"]
    label = subdomain_label(host, base)
    if label is not None:
        return _must_exist(label, "subdomain", credential)
    if host != base and _looks_like_domain(host):
        own = credential.tenant if credential is not None else None
        if own is not None and own.custom_domain == host:
            return own
        tenant = tenants.find_by_domain(host)
        if tenant is not None:
            return TenantRef.of(tenant)
    header = request.headers.get("X-Tenant-Id")
    if header is not None:
        value = header.strip().lower()
        if not _TENANT_HEADER_RE.match(value):
            raise DomainError(400, "TENANT_REQUIRED", "X-Tenant-Id is not a valid tenant id.")
        return _must_exist(value, "X-Tenant-Id header", credential)
    if credential is not None and credential.kind == "user":
        claim = credential.claims.get("tenant_id")
        if isinstance(claim, str):
            return _must_exist(claim, "token's tenant_id claim", credential)
    return None


def subdomain_label(host: str, base_domain: str) -> str | None:
    """`acme` for `acme.<base>`; None for the base itself, deeper names and reserved labels."""
    if not base_domain or not host.endswith("." + base_domain):
        return None
    label = host[: -len(base_domain) - 1]
    if "." in label or label in _RESERVED_SUBDOMAINS:
        return None
    return label


def _looks_like_domain(host: str) -> bool:
    return "." in host and not host.replace(".", "").isdigit() and not host.startswith("[")


def _must_exist(slug: str, source: str, credential: Credential | None) -> TenantRef:
    own = credential.tenant if credential is not None else None
    if own is not None and own.id == slug:
        return own  # read with the credential: no second lookup
    tenant = tenants.get_tenant(slug)
    if tenant is None:
        raise DomainError(400, "TENANT_REQUIRED", f"No tenant {slug!r} (from the {source}).")
    return TenantRef.of(tenant)

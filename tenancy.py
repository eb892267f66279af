"""Which tenant a request is for, and what kind of path it is, for the API and the portal alike:
the client IP, the host's tenant (spec 5.3 sources 1 and 2: subdomain, custom domain), the
`X-Tenant-Id` header (source 3), `current_tenant`, and the one table of path classes that says
what each kind of path gets (the JSON envelope, rate limits, lifecycle headers, the OpenAPI
document, CSRF)."""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass

from flask import current_app, g, request
from werkzeug.local import LocalProxy

from errors import DomainError
from services.accounts import tenants
from services.accounts.tenants import TenantRef

# --- path classes ----------------------------------------------------------------------------


@dataclass(frozen=True)
class PathClass:
    """What one kind of path gets. The first class whose prefix matches a path is its class."""

    name: str
    prefixes: tuple[str, ...]
    limits: str | None = None  # which rate windows count it: "caller", "ip", "sign-in"
    envelope: bool = True  # errors answer in the JSON envelope, never HTML or a redirect
    rate_headers: bool = True  # X-RateLimit-* (of the windows charged, else the client IP's)
    lifecycle: bool = False  # Deprecation/Sunset/Link and the beta tier header
    documented: bool = False  # described in the OpenAPI document
    csrf: bool = False  # HTML forms posted with a session cookie need a CSRF token
    secret_path: bool = False  # the path holds a secret: logs name only the prefix


_SIGN_IN = ("/api/v1/login", "/api/v1/auth/", "/oauth/token", "/oauth/revoke")
PATH_CLASSES: tuple[PathClass, ...] = (
    # Credential-issuing endpoints: limited per client IP, tightly, whatever the outcome.
    PathClass("sign-in", _SIGN_IN, "sign-in", lifecycle=True, documented=True),
    # The versioned API: callers with a credential are counted per tenant and credential;
    # public views, refused credentials and unknown paths per client IP.
    PathClass("api", ("/api/",), "caller", lifecycle=True, documented=True),
    # Discovery documents, and the OAuth pages a browser visits (HTML forms).
    PathClass("well-known", ("/.well-known/",), "ip", documented=True),
    PathClass("oauth-pages", ("/oauth/",), "ip", envelope=False, documented=True, csrf=True),
    # Operators only (api/operations.py); never counted, so monitoring cannot exhaust a budget.
    PathClass("internal", ("/internal/",)),
    # Public form pages (portal/forms.py): anyone may post them, so each client IP is
    # counted, and their forms carry a CSRF token like the portal's.
    PathClass("public-forms", ("/f/",), "ip", envelope=False, rate_headers=False, csrf=True),
    # Share links' public pages (portal/sharing.py): the token in the path is a secret, kept
    # out of the logs; each client IP is counted; the password form has its own token.
    PathClass("share-links", ("/s/",), "ip", envelope=False, rate_headers=False, secret_path=True),
    # The portal, /docs and static files: HTML, session cookies, a sign-in throttle of its own.
    PathClass("portal", ("/",), envelope=False, rate_headers=False, csrf=True),
)


def classify(path: str) -> PathClass:
    """The class of `path` (`/api` without a slash is the API's too)."""
    for path_class in PATH_CLASSES:
        for prefix in path_class.prefixes:
            if path.startswith(prefix) or path == prefix.rstrip("/"):
                return path_class
    return PATH_CLASSES[-1]


def path_class() -> PathClass:
    """The current request's path class (computed once per request)."""
    if "path_class" not in g:
        g.path_class = classify(request.path)
    return g.path_class


def wants_envelope() -> bool:
    return path_class().envelope


def loggable_path() -> str:
    """The request's path as logs may show it: a path holding a secret becomes its prefix."""
    current = path_class()
    if current.secret_path:
        return f"{current.prefixes[0]}[redacted]"
    return request.path


# --- the client ------------------------------------------------------------------------------


def client_ip() -> str:
    """The caller's address. X-Forwarded-For counts only when the operator says how many
    proxies append to it (DMS_TRUSTED_PROXY_COUNT); then the entry that many hops from the
    right is the client, so a client-forged left-most entry is ignored."""
    if "client_ip" not in g:
        g.client_ip = address_of(
            request.remote_addr,
            request.headers.get("X-Forwarded-For"),
            current_app.config["DMS_TRUSTED_PROXY_COUNT"],
        )
    return g.client_ip


def address_of(remote_addr: str | None, forwarded_for: str | None, trusted_proxies: int) -> str:
    addr = remote_addr or ""
    if trusted_proxies > 0 and forwarded_for:
        hops = [h.strip() for h in forwarded_for.split(",") if h.strip()]
        if len(hops) >= trusted_proxies:
            addr = hops[-trusted_proxies]
    try:
        return str(ipaddress.ip_address(addr.split("%")[0]))
    except ValueError:
        return addr


def is_loopback(ip: str) -> bool:
    try:
        return ipaddress.ip_address(ip).is_loopback
    except ValueError:
        return False


# --- the tenant ------------------------------------------------------------------------------

current_tenant: TenantRef = LocalProxy(lambda: g.tenant)  # type: ignore[assignment]

_TENANT_HEADER_RE = re.compile(r"^[a-z0-9][a-z0-9-]{1,62}$")
_RESERVED_SUBDOMAINS = {"www", "api", "app", "admin", "portal"}


def request_host() -> str:
    return request.host.split(":", 1)[0].lower().rstrip(".")


def subdomain_label(host: str, base_domain: str) -> str | None:
    """`acme` for `acme.<base>`; None for the base itself, deeper names and reserved labels."""
    if not base_domain or not host.endswith("." + base_domain):
        return None
    label = host[: -len(base_domain) - 1]
    if "." in label or label in _RESERVED_SUBDOMAINS:
        return None
    return label


def looks_like_domain(host: str) -> bool:
    """Not `localhost`, not an IP literal: a name a tenant could have as its custom domain."""
    return "." in host and not host.replace(".", "").isdigit() and not host.startswith("[")


def resolve_tenant(own: TenantRef | None = None, claim: str | None = None) -> TenantRef | None:
    """Spec 5.3, highest first: subdomain, custom domain, X-Tenant-Id, the token's claim.

    `own` is the credential's tenant when it came with it (API keys): it answers without a
    second lookup. The first source present decides; a source naming no existing tenant is
    400 TENANT_REQUIRED rather than a fall-through, so a typo never selects another tenant."""
    host = request_host()
    base = current_app.config["DMS_BASE_DOMAIN"]
    label = subdomain_label(host, base)
    if label is not None:
        return _must_exist(label, "subdomain", own)
    if host != base and looks_like_domain(host):
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
        return _must_exist(value, "X-Tenant-Id header", own)
    if claim is not None:
        return _must_exist(claim, "token's tenant_id claim", own)
    return None


def host_tenant() -> TenantRef | None:
    """The tenant the host names (subdomain, then custom domain), or None: what the portal
    holds a signed-in user to, and what its sign-in page pre-selects."""
    host = request_host()
    base = current_app.config["DMS_BASE_DOMAIN"]
    label = subdomain_label(host, base)
    if label is not None:
        tenant = tenants.get_tenant(label)
    elif host != base and looks_like_domain(host):
        tenant = tenants.find_by_domain(host)
    else:
        tenant = None
    return TenantRef.of(tenant) if tenant is not None else None


def _must_exist(slug: str, source: str, own: TenantRef | None) -> TenantRef:
    if own is not None and own.id == slug:
        return own  # read with the credential: no second lookup
    tenant = tenants.get_tenant(slug)
    if tenant is None:
        raise DomainError(400, "TENANT_REQUIRED", f"No tenant {slug!r} (from the {source}).")
    return TenantRef.of(tenant)

"""Who may see which portal page: role decorators, the signed-in tenant and the audit actor."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from flask import current_app, g, request
from flask_login import current_user, login_required, logout_user

from errors import DomainError
from extensions import db
from models import Tenant
from services import tenants
from services.actors import Actor

ADMIN = ("admin",)
READERS = ("admin", "auditor")  # keys and the audit log, read-only for auditors
TENANT_ROLES = ("admin", "auditor", "member")
SUPPORT = ("support",)


def forbidden(message: str = "Your role does not give access to this page.") -> DomainError:
    return DomainError(403, "FORBIDDEN", message)


def roles_required(*roles: str) -> Callable:
    """Signed in, with one of `roles` (tenant roles or "support"); else the 403 page.

    A tenant user is also held to the workspace the host names: a session from one
    tenant's subdomain is not honoured on another's.
    """

    def decorator(view: Callable) -> Callable:
        @login_required
        @wraps(view)
        def wrapper(*args, **kwargs):
            if current_user.role not in roles:
                raise forbidden()
            if not current_user.is_support:
                host_tenant = tenant_from_host()
                if host_tenant is not None and host_tenant.id != current_user.tenant_id:
                    logout_user()
                    raise forbidden("You are signed in to another workspace.")
            return view(*args, **kwargs)

        return wrapper

    return decorator


def portal_tenant() -> Tenant:
    """The signed-in user's tenant (loaded once per request)."""
    if "portal_tenant" not in g:
        g.portal_tenant = db.session.get(Tenant, current_user.tenant_id)
    return g.portal_tenant


def portal_actor() -> Actor:
    """The signed-in person as the audit log records them."""
    from api.auth import request_client_ip

    kind = "support" if current_user.is_support else "user"
    return Actor(
        kind,
        current_user.id,
        current_user.email,
        request_client_ip(),
        request.headers.get("User-Agent"),
    )


def can_write() -> bool:
    return current_user.is_authenticated and current_user.role == "admin"


def tenant_from_host() -> Tenant | None:
    """Spec 5.3 order for the portal: the subdomain, then a custom domain."""
    from api.auth import subdomain_label

    host = request.host.split(":", 1)[0].lower().rstrip(".")
    base = current_app.config["DMS_BASE_DOMAIN"]
    label = subdomain_label(host, base)
    if label is not None:
        return tenants.get_tenant(label)
    if base and host != base and "." in host and not host.replace(".", "").isdigit():
        return tenants.find_by_domain(host)
    return None


def is_htmx() -> bool:
    return request.headers.get("HX-Request") == "true"

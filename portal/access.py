"""Who may see which portal page: role decorators, the signed-in tenant and the audit actor."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from flask import g, request
from flask_login import current_user, login_required, logout_user

import tenancy
from errors import DomainError
from extensions import db
from models import Tenant
from services.accounts.tenants import TenantRef
from services.core.actors import Actor

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
                host = tenancy.host_tenant()
                if host is not None and host.id != current_user.tenant_id:
                    logout_user()
                    raise forbidden("You are signed in to another workspace.")
                g.tenant = TenantRef.of(portal_tenant())  # tenancy.current_tenant
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
    kind = "support" if current_user.is_support else "user"
    return Actor(
        kind,
        current_user.id,
        current_user.email,
        tenancy.client_ip(),
        request.headers.get("User-Agent"),
    )


def is_admin() -> bool:
    """The signed-in person holds the tenant's admin role."""
    return current_user.is_authenticated and current_user.role == "admin"


def can_write() -> bool:
    return is_admin()


def is_htmx() -> bool:
    return request.headers.get("HX-Request") == "true"

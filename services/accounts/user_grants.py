"""What a request authenticated by a user's access token needs of the user (tenant, role,
active), remembered per process under the auth generation, so a token is checked without
SQL while a deactivation or a role change applies from the very next request."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from extensions import db
from models import Tenant, User
from services.accounts.tenants import TenantRef
from services.core import auth_generation

_USERS = auth_generation.Memory("users")


@dataclass(frozen=True)
class UserGrant:
    id: str
    tenant_id: str
    email: str
    name: str | None
    role: str
    active: bool
    # The user's tenant, remembered with the user, so a token's request needs no SQL to
    # resolve it (what the API keys' KeyGrant does for a key's tenant).
    tenant: TenantRef | None = field(default=None, compare=False)

    @classmethod
    def of(cls, user: User) -> UserGrant:
        return cls(user.id, user.tenant_id, user.email, user.name, user.role, user.is_active)


def lookup(user_id: str, generation: str | None) -> UserGrant | None:
    """The user with their tenant. `generation` is `auth_generation.current()`, read once per
    request before any database read, or a change could slip by."""
    grant = _USERS.get(user_id, generation)
    if grant is not auth_generation.MISSING:
        return grant
    user = db.session.get(User, user_id)
    tenant = db.session.get(Tenant, user.tenant_id) if user is not None else None
    grant = None
    if user is not None and tenant is not None:
        grant = dataclasses.replace(UserGrant.of(user), tenant=TenantRef.of(tenant))
    _USERS.put(user_id, grant, generation)
    return grant

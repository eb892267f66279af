"""What a request authenticated by a user's access token needs of the user (tenant, role,
active), remembered per process under the auth generation, so a token is checked without
SQL while a deactivation or a role change applies from the very next request."""

from __future__ import annotations

from dataclasses import dataclass

from extensions import db
from models import User
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

    @classmethod
    def of(cls, user: User) -> UserGrant:
        return cls(user.id, user.tenant_id, user.email, user.name, user.role, user.is_active)


def lookup(user_id: str) -> UserGrant | None:
    generation = auth_generation.current()  # before the database, or a change could slip by
    grant = _USERS.get(user_id, generation)
    if grant is not auth_generation.MISSING:
        return grant
    user = db.session.get(User, user_id)
    grant = UserGrant.of(user) if user is not None else None
    _USERS.put(user_id, grant, generation)
    return grant

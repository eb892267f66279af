"""What each role may do through the API with a user's token: the scopes a role allows. A
token's effective scopes are the ones it was granted AND the ones the user's role allows now,
so a role change narrows every token at the next request."""

from __future__ import annotations

from errors import FieldError
from models import SCOPES, Role

_READ = frozenset(s for s in SCOPES if s.endswith(":read"))
ROLE_SCOPES: dict[str, frozenset[str]] = {
    # Everything, administration of webhooks included.
    Role.ADMIN.value: frozenset(SCOPES),
    # Work with documents, workflows, forms, the graph, the copilot and notifications;
    # webhooks and analytics are the admins' (and auditors', read-only).
    Role.MEMBER.value: frozenset(SCOPES) - {"webhooks:read", "webhooks:write", "analytics:read"},
    # Read-only, everything readable.
    Role.AUDITOR.value: _READ,
}


def scopes_for(role: str) -> frozenset[str]:
    return ROLE_SCOPES.get(role, frozenset())


def checked_scopes(scopes: list[str]) -> tuple[list[str], list[FieldError]]:
    """A chosen set of scopes (an API key's, an OAuth app's): sorted and without repeats,
    with the field errors for unknown ones or none at all."""
    unknown = [s for s in scopes if s not in SCOPES]
    if unknown:
        message = f"Unknown scope(s): {', '.join(unknown)}."
        return [], [FieldError("VALIDATION_ERROR", message, "scopes")]
    if not scopes:
        return [], [FieldError("VALIDATION_ERROR", "Choose at least one scope.", "scopes")]
    return sorted(set(scopes)), []

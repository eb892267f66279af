"""Sign-in, the caller and invitations as they go over the wire, both ways (CONTRACT §9, §10):
the login body, the token answered by the login, /oauth/token and passkey sign-in, who is
calling, and an admin's invitations."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter
from pydantic.alias_generators import to_camel

from models import Invitation
from services.accounts import invitations
from services.core.wire import PageQuery, Timestamp, Wire


class LoginBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    email: str = Field(min_length=3, max_length=254)
    password: str = Field(min_length=1, max_length=1024)


class TokenOut(BaseModel):
    """The token shape of /oauth/token, of the login and of passkey sign-in."""

    access_token: str
    token_type: Literal["Bearer"]
    expires_in: int
    refresh_token: str
    scope: str


class TenantOut(BaseModel):
    id: str
    name: str
    plan: str


class CallerOut(BaseModel):
    """Who is calling: a user (access token) or an API key."""

    type: Literal["user", "api_key"]
    id: str
    name: str | None = None
    email: str | None = Field(None, description="Users only.")
    role: str | None = Field(None, description="Users only.")
    scopes: list[str] = Field(description="What this credential may do now.")
    tenant: TenantOut


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", alias_generator=to_camel, populate_by_name=True)


class InvitationCreate(_Body):
    """POST /users/invitations."""

    email: str = Field(min_length=3, max_length=254)
    role: Literal["admin", "member", "auditor"] = "member"


class InvitationListQuery(PageQuery):
    """GET /users/invitations: newest first, accepted, expired and revoked ones included."""


class InvitationOut(Wire):
    id: str
    email: str
    role: str
    status: str = Field(description="pending, accepted, expired or revoked.")
    expires_at: Timestamp
    accepted_at: Timestamp | None
    revoked_at: Timestamp | None
    created_at: Timestamp


class InvitationCreatedOut(InvitationOut):
    accept_url: str | None = Field(
        None,
        description="The single-use link, only when no SMTP server is configured (pass it on "
        "yourself); with SMTP it is e-mailed and never shown.",
    )


_INVITATIONS = TypeAdapter(list[InvitationOut])


def _invitation_fields(invitation: Invitation) -> dict[str, Any]:
    return {
        "id": invitation.id,
        "email": invitation.email,
        "role": invitation.role,
        "status": invitations.state_of(invitation).value,
        "expires_at": invitation.expires_at,
        "accepted_at": invitation.accepted_at,
        "revoked_at": invitation.revoked_at,
        "created_at": invitation.created_at,
    }


def invitation_data(invitation: Invitation, accept_url: str | None = None) -> dict[str, Any]:
    if accept_url is None:
        model = InvitationOut.model_validate(_invitation_fields(invitation))
        return model.model_dump(mode="json", by_alias=True)
    created = InvitationCreatedOut.model_validate(
        {**_invitation_fields(invitation), "accept_url": accept_url}
    )
    return created.model_dump(mode="json", by_alias=True)


def invitations_data(rows: list[Invitation]) -> list[dict[str, Any]]:
    models = _INVITATIONS.validate_python([_invitation_fields(i) for i in rows])
    return _INVITATIONS.dump_python(models, mode="json", by_alias=True)

"""Sign-in and the caller as they go over the wire, both ways (CONTRACT §9): the login body,
the token answered by the login, /oauth/token and passkey sign-in, and who is calling."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


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

"""OAuth 2.0 (authorization code with PKCE): the clients a tenant registers, the codes they
are given, the refresh-token families issued from them, and what each user consented to.
Secrets, codes and refresh tokens are stored as SHA-256 digests only (256 random bits)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, Boolean, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from extensions import db
from models.base import TenantScoped, UTCDateTime, created_at_column, id_column


class OAuthClient(TenantScoped, db.Model):
    """An application a tenant admin registered; its id is the public `client_id`."""

    __tablename__ = "oauth_clients"
    __not_found_label__ = "OAuth app"

    id: Mapped[str] = id_column("oac")
    name: Mapped[str] = mapped_column(String(100), nullable=False)
    redirect_uris: Mapped[list[str]] = mapped_column(JSON, nullable=False, default=list)
    confidential: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    secret_hash: Mapped[str | None] = mapped_column(String(64))
    secret_hint: Mapped[str | None] = mapped_column(String(8))
    scopes: Mapped[list[str]] = mapped_column(JSON, nullable=False, default=list)
    created_by: Mapped[str | None] = mapped_column(String(60))
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    deleted_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


class OAuthCode(TenantScoped, db.Model):
    """An authorization code: single use, ten minutes, bound to client, redirect URI and the
    PKCE challenge; `family_id` names the tokens its exchange issued (revoked on reuse)."""

    __tablename__ = "oauth_codes"

    id: Mapped[str] = id_column("ocd")
    code_hash: Mapped[str] = mapped_column(String(64), nullable=False, unique=True)
    client_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("oauth_clients.id", ondelete="CASCADE"), nullable=False
    )
    user_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("users.id", ondelete="CASCADE"), nullable=False
    )
    redirect_uri: Mapped[str] = mapped_column(String(2000), nullable=False)
    scope: Mapped[str] = mapped_column(String(1000), nullable=False, default="")
    code_challenge: Mapped[str] = mapped_column(String(128), nullable=False)
    code_challenge_method: Mapped[str] = mapped_column(String(10), nullable=False)
    created_at: Mapped[datetime] = created_at_column()
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    family_id: Mapped[str | None] = mapped_column(String(40))


class OAuthToken(TenantScoped, db.Model):
    """A refresh token. Each use rotates it: the row is marked rotated and a new one of the
    same family is issued; presenting a rotated one again revokes the whole family."""

    __tablename__ = "oauth_tokens"
    __table_args__ = (Index("ix_oauth_tokens_family", "family_id"),)

    id: Mapped[str] = id_column("ort")
    family_id: Mapped[str] = mapped_column(String(40), nullable=False)
    client_id: Mapped[str] = mapped_column(String(40), nullable=False)  # or "first-party"
    user_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True
    )
    refresh_hash: Mapped[str] = mapped_column(String(64), nullable=False, unique=True)
    scope: Mapped[str] = mapped_column(String(1000), nullable=False, default="")
    issued_at: Mapped[datetime] = created_at_column()
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)
    last_used_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    rotated_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    revoked_reason: Mapped[str | None] = mapped_column(String(40))


class OAuthConsent(TenantScoped, db.Model):
    """The scopes a user allowed a client, remembered until revoked."""

    __tablename__ = "oauth_consents"
    __table_args__ = (UniqueConstraint("user_id", "client_id"),)

    id: Mapped[str] = id_column("ocn")
    user_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("users.id", ondelete="CASCADE"), nullable=False
    )
    client_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("oauth_clients.id", ondelete="CASCADE"), nullable=False
    )
    scope: Mapped[str] = mapped_column(String(1000), nullable=False, default="")
    granted_at: Mapped[datetime] = created_at_column()
    last_used_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
